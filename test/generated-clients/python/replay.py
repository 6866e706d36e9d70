"""Replays recorded bodies through openapi-generator's Python client (pydantic models).

Usage: replay.py <generated client folder> <replays.json> <answers.json>. Each replay is
{"schema": <model name>, "body": <JSON>}: the body is read with the model's from_dict and written back
with to_dict (what a program using the client gets); each answer is {"value": <JSON>} or
{"error": <message>}, in the replays' order. Date-times come back as ISO 8601 text.
"""

import copy
import datetime
import json
import sys


def main() -> None:
    client_folder, replays_file, answers_file = sys.argv[1:4]
    sys.path.insert(0, client_folder)
    import directory_client.models as models

    with open(replays_file, encoding="utf-8") as source:
        replays = json.load(source)
    answers = []
    for replay in replays:
        try:
            model = getattr(models, replay["schema"])
            value = model.from_dict(copy.deepcopy(replay["body"])).to_dict()
            answers.append({"value": json.loads(json.dumps(value, default=iso_text))})
        except Exception as error:  # every refusal is reported, never raised: the caller counts them
            answers.append({"error": f"{type(error).__name__}: {error}"})
    with open(answers_file, "w", encoding="utf-8") as target:
        json.dump(answers, target)


def iso_text(value: object) -> str:
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


if __name__ == "__main__":
    main()

package replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import org.openapitools.client.ApiClient;

/**
 * Copied into the generated Java client by check-clients.ts. Reads [{schema, body}] from args[0] and
 * writes [{value} | {error}] to args[1]: each body read into its generated model class with the client's
 * own ObjectMapper, then written back with it.
 */
public final class Replay {
  public static void main(String[] args) throws Exception {
    ObjectMapper client = ApiClient.createDefaultObjectMapper();
    ObjectMapper plain = new ObjectMapper();
    ArrayNode answers = plain.createArrayNode();
    for (JsonNode entry : plain.readTree(new File(args[0]))) {
      ObjectNode answer = answers.addObject();
      try {
        Class<?> model = Class.forName("org.openapitools.client.model." + entry.get("schema").asText());
        Object value = client.treeToValue(entry.get("body"), model);
        answer.set("value", plain.readTree(client.writeValueAsString(value)));
      } catch (Exception error) {
        answer.put("error", error.toString());
      }
    }
    plain.writeValue(new File(args[1]), answers);
  }
}

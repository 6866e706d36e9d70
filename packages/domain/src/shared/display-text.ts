/**
 * Stored text (crawled names, producers' payloads, rejection reasons) shown to a reader: a model reading
 * MCP text, an operator reading a terminal. Some characters in such text are instructions to the
 * display rather than text, so data could forge lines or drive the terminal:
 *
 * - C0 controls (U+0000–U+001F: line feeds, ESC, …), DEL (U+007F) and C1 controls (U+0080–U+009F:
 *   NEL, CSI, …): new lines, terminal escape sequences;
 * - the Unicode line and paragraph separators U+2028 and U+2029: new lines in many viewers;
 * - the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069: they reorder
 *   what follows on screen, so a name could read as something else than it is.
 *
 * The marks U+200E/U+200F are left alone: they only nudge neutral characters and cannot reorder text.
 * JSON answers and structuredContent keep the data exactly; only renderings for reading pass through here.
 */

// A character class only, so each replace is one linear pass.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const DISPLAY_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// Tab, line feed, vertical tab, form feed, carriage return, NEL, line and paragraph separators.
const LINE_BREAKS = new Set(['\t', '\n', '\u000b', '\u000c', '\r', '\u0085', '\u2028', '\u2029']);

/**
 * Text for a rendering whose own layout makes the lines (MCP tool text): a line break or tab in the data
 * becomes a space (it separated words), any other control character U+FFFD, visibly standing in for it.
 */
export function singleLineText(text: string): string {
  return text.replace(DISPLAY_CONTROLS, (character) => (LINE_BREAKS.has(character) ? ' ' : '\uFFFD'));
}

/**
 * Text for a terminal (operator commands): every control character shown as its escape, `\x1b` for
 * C0, DEL and C1, `\u{2028}` for the others, so an operator sees what the data holds and the terminal
 * obeys nothing in it. For reading only: a backslash in the data is left as it is.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(DISPLAY_CONTROLS, (character) => {
    const code = character.charCodeAt(0);
    const hex = code.toString(16).padStart(2, '0');
    return code <= 0x9f ? `\\x${hex}` : `\\u{${hex}}`;
  });
}

// What JSON.stringify leaves unescaped of the characters above: it already escapes every C0 control.
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (from JSON.stringify, indented or not) for a terminal: the control characters JSON leaves
 * raw become `\u` escapes. They can only stand inside strings, so the result is still JSON, of the same
 * value; raw line feeds left in it are the indentation's.
 */
export function escapeJsonControlCharacters(json: string): string {
  return json.replace(
    JSON_RAW_CONTROLS,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

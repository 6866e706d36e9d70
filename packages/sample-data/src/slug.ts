// Letters that NFD does not decompose into base letter + accent.
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lowercase ASCII with accents folded: "München" → "munchen". */
export function foldToAscii(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøłđðþı]/g, (letter) => SPECIAL_LETTERS[letter] ?? '');
}

/** A URL slug matching `SLUG_PATTERN`, or '' when nothing latin is left. */
export function slugify(text: string): string {
  // Each run of other characters becomes one dash, so at most one dash is left at either end.
  return foldToAscii(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export {
  generateEvents,
  generateLabelledEvents,
  DEFAULT_START_TIME,
  type GenerateOptions,
  type GenerationSummary,
  type LabelledEvent,
} from './generate-events.js';
export type { RawEvent } from './event-builders.js';
export { INVALID_KINDS, type InvalidKind } from './invalid-events.js';
export { slugify } from './slug.js';
export { citiesOf } from './cities.js';

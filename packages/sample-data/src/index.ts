export { generateEvents } from './generate-events.js';
export { citiesOf } from './cities.js';
export {
  SOURCES,
  generateLabelledPlaces,
  reformatPhone,
  varyName,
  varyStreet,
  type LabelledPlace,
  type LabelledPlacesOptions,
} from './duplicates.js';
export type { ObservedFields } from './place.js';

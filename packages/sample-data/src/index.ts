export { generateEvents } from './generate-events.js';
export { citiesOf } from './cities.js';

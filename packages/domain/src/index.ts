// Public surface of the pure core. Each module adds its own export line.
export * from './text.js';
export * from './assert-never.js';
export * from './events.js';
export * from './place-state.js';
export * from './phone-number.js';
export * from './public-url.js';
export * from './profile-url.js';
export * from './doctor.js';
export * from './search-document.js';
export * from './result.js';
export * from './api-key.js';
export * from './search-params.js';
export * from './cursor.js';
export * from './search-query.js';
export * from './doctor-page.js';

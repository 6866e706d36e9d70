// Public surface of the pure core. Each module adds its own export line.
export * from './text.js';

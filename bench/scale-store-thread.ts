// A worker thread of the bulk store (bench/scale-store.ts): builds the slices it is sent, hands back the
// places' COPY text and the count of positions taken, then the events' COPY text once the main thread
// has said which positions the slices before this one took.
import { parentPort } from 'node:worker_threads';
import {
  buildShard,
  eventsText,
  type Shard,
  type ShardFigures,
  type ShardSettings,
} from './scale-store-shard.js';

export type ToThread =
  | { type: 'shard'; shard: Shard; settings: ShardSettings }
  | { type: 'offset'; index: number; offset: number };

export type FromThread =
  | {
      type: 'counted';
      index: number;
      positions: number;
      figures: ShardFigures;
      placesText: Uint8Array;
    }
  | { type: 'events'; index: number; eventsText: Uint8Array };

const port = parentPort;
if (port === null) throw new Error('scale-store-thread runs as a worker thread');
const encoder = new TextEncoder();
let built: ReturnType<typeof buildShard> | undefined;

port.on('message', (message: ToThread) => {
  if (message.type === 'shard') {
    built = buildShard(message.shard, message.settings);
    // Encoded here, and moved rather than copied, so the main thread only writes bytes.
    const placesText = encoder.encode(built.placesText);
    const reply: FromThread = {
      type: 'counted',
      index: built.index,
      positions: built.positions,
      figures: built.figures,
      placesText,
    };
    port.postMessage(reply, [placesText.buffer]);
    return;
  }
  if (built === undefined || built.index !== message.index)
    throw new Error(`offset for slice ${message.index}, which this thread is not holding`);
  const text = encoder.encode(eventsText(built, message.offset));
  built = undefined;
  const reply: FromThread = {
    type: 'events',
    index: message.index,
    eventsText: text,
  };
  port.postMessage(reply, [text.buffer]);
});

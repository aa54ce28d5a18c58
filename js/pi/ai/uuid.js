// UUIDv7 with pi-ai's layout: 48-bit millisecond timestamp, then a 41-bit
// counter spread over rand_a and the top of rand_b (version and variant bits
// in between), then random bits. The counter starts at a random 40-bit value
// and steps once per id, so ids made in the same millisecond still sort in
// the order they were made; the clock is never allowed to run backwards for
// ids stamped with the current time.

const LARGEST_TIMESTAMP = 0xffffffffffff;
const LARGEST_COUNTER = 2 ** 41 - 1;

let latestClockStamp = -1;
let counter;

function byteAt(value, shift) {
  // `value` is below 2^48, so plain float arithmetic stays exact.
  return Math.floor(value / 2 ** shift) % 256;
}

/** A time-ordered UUIDv7; an explicit timestamp is kept as given. */
export function uuidv7(timestampMs) {
  const requested = timestampMs === undefined ? Date.now() : timestampMs;
  if (!Number.isInteger(requested) || requested < 0 || requested > LARGEST_TIMESTAMP) {
    throw new RangeError(`UUIDv7 timestamp must be an integer between 0 and ${LARGEST_TIMESTAMP}`);
  }
  let stamp = requested;
  if (timestampMs === undefined) {
    stamp = Math.max(requested, latestClockStamp);
    latestClockStamp = stamp;
  }

  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  if (counter === undefined) {
    counter = bytes[1] * 2 ** 32 + ((bytes[2] << 24) >>> 0) + (bytes[3] << 16) + (bytes[4] << 8) + bytes[5];
  } else {
    if (counter === LARGEST_COUNTER) throw new RangeError("UUIDv7 generator sequence exhausted");
    counter += 1;
  }

  for (let index = 0; index < 6; index++) bytes[index] = byteAt(stamp, 40 - index * 8);
  bytes[6] = 0x70 | byteAt(counter, 37) % 16;
  bytes[7] = byteAt(counter, 29);
  bytes[8] = 0x80 | byteAt(counter, 23) % 64;
  bytes[9] = byteAt(counter, 15);
  bytes[10] = byteAt(counter, 7);
  bytes[11] = ((counter % 128) << 1) | (bytes[11] & 1);

  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

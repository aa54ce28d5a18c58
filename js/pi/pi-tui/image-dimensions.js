// An image's pixel size read from the header inside its base64 data, for
// PNG, JPEG, GIF and WebP, with pi-tui's answers: null when the header is
// missing, short or of another format.

const ALPHABETS = ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", "-_"];
const SEXTETS = new Int8Array(256).fill(-1);
for (const [offset, letters] of [[0, ALPHABETS[0]], [62, ALPHABETS[1]]]) {
  for (let i = 0; i < letters.length; i++) SEXTETS[letters.charCodeAt(i)] = offset + i;
}
const PADDING = 0x3d;

/**
 * The bytes of base64 text, decoded only as far as they are asked for: a
 * header sits at the start of what may be megabytes of image. Decodes as
 * Node's Buffer.from(text, "base64") does, which pi-tui uses: both the
 * standard and the URL-safe alphabet, other characters skipped (a UTF-16
 * unit counts by its low byte), the first "=" ends the data, and a trailing
 * partial group keeps its whole bytes.
 */
class Base64Bytes {
  constructor(text) {
    this.text = text;
    this.read = 0;
    this.bytes = [];
    this.bits = 0;
    this.bitCount = 0;
    this.ended = false;
  }

  /** Whether the data is at least `count` bytes long. */
  has(count) {
    while (this.bytes.length < count && !this.ended) this.decodeNext();
    return this.bytes.length >= count;
  }

  at(index) {
    this.has(index + 1);
    return this.bytes[index];
  }

  /** Bytes read as Node's "ascii" decoding reads them: the top bit dropped. */
  ascii(start, end) {
    let text = "";
    for (let i = start; i < end && this.has(i + 1); i++) text += String.fromCharCode(this.bytes[i] & 0x7f);
    return text;
  }

  uint16be(at) {
    return this.checked(at, 2, () => (this.bytes[at] << 8) | this.bytes[at + 1]);
  }

  uint16le(at) {
    return this.checked(at, 2, () => this.bytes[at] | (this.bytes[at + 1] << 8));
  }

  uint32be(at) {
    return this.checked(at, 4, () => this.uint16be(at) * 0x10000 + this.uint16be(at + 2));
  }

  uint32le(at) {
    return this.checked(at, 4, () => this.uint16le(at) + this.uint16le(at + 2) * 0x10000);
  }

  // Reading past the end throws, as Buffer's readers do.
  checked(at, size, read) {
    if (!this.has(at + size)) throw new RangeError(`offset ${at} is out of range`);
    return read();
  }

  decodeNext() {
    if (this.read >= this.text.length) {
      this.ended = true;
      return;
    }
    const unit = this.text.charCodeAt(this.read++) & 0xff;
    if (unit === PADDING) {
      this.ended = true;
      return;
    }
    const sextet = SEXTETS[unit];
    if (sextet < 0) return;
    this.bits = (this.bits << 6) | sextet;
    this.bitCount += 6;
    if (this.bitCount >= 8) {
      this.bitCount -= 8;
      this.bytes.push((this.bits >> this.bitCount) & 0xff);
      this.bits &= (1 << this.bitCount) - 1;
    }
  }
}

// Anything that is not a base64 string, or any header that does not add up,
// is "no dimensions", never an error.
function readHeader(base64Data, read) {
  try {
    if (typeof base64Data !== "string") return null;
    return read(new Base64Bytes(base64Data));
  } catch {
    return null;
  }
}

const size = (widthPx, heightPx) => ({ widthPx, heightPx });

/** Width and height of the IHDR chunk, right after the signature. */
export function getPngDimensions(base64Data) {
  return readHeader(base64Data, (bytes) => {
    if (!bytes.has(24)) return null;
    const signature = [0x89, 0x50, 0x4e, 0x47];
    if (signature.some((byte, i) => bytes.at(i) !== byte)) return null;
    return size(bytes.uint32be(16), bytes.uint32be(20));
  });
}

/** The size in the first baseline, extended or progressive frame header (SOF0-SOF2). */
export function getJpegDimensions(base64Data) {
  return readHeader(base64Data, (bytes) => {
    if (!bytes.has(2) || bytes.at(0) !== 0xff || bytes.at(1) !== 0xd8) return null;
    let at = 2;
    // A segment is looked at only while ten bytes of it can be read.
    while (bytes.has(at + 10)) {
      if (bytes.at(at) !== 0xff) {
        at++;
        continue;
      }
      const marker = bytes.at(at + 1);
      if (marker >= 0xc0 && marker <= 0xc2) return size(bytes.uint16be(at + 7), bytes.uint16be(at + 5));
      const segmentLength = bytes.uint16be(at + 2);
      if (segmentLength < 2) return null;
      at += 2 + segmentLength;
    }
    return null;
  });
}

/** The logical screen size after the GIF87a/GIF89a signature. */
export function getGifDimensions(base64Data) {
  return readHeader(base64Data, (bytes) => {
    if (!bytes.has(10)) return null;
    const signature = bytes.ascii(0, 6);
    if (signature !== "GIF87a" && signature !== "GIF89a") return null;
    return size(bytes.uint16le(6), bytes.uint16le(8));
  });
}

/** The size in the first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
export function getWebpDimensions(base64Data) {
  return readHeader(base64Data, (bytes) => {
    if (!bytes.has(30)) return null;
    if (bytes.ascii(0, 4) !== "RIFF" || bytes.ascii(8, 12) !== "WEBP") return null;
    switch (bytes.ascii(12, 16)) {
      case "VP8 ":
        return size(bytes.uint16le(26) & 0x3fff, bytes.uint16le(28) & 0x3fff);
      case "VP8L": {
        const packed = bytes.uint32le(21);
        return size((packed & 0x3fff) + 1, ((packed >> 14) & 0x3fff) + 1);
      }
      case "VP8X": {
        const uint24le = (at) => bytes.at(at) | (bytes.at(at + 1) << 8) | (bytes.at(at + 2) << 16);
        return size(uint24le(24) + 1, uint24le(27) + 1);
      }
      default:
        return null;
    }
  });
}

const READERS = {
  "image/png": getPngDimensions,
  "image/jpeg": getJpegDimensions,
  "image/gif": getGifDimensions,
  "image/webp": getWebpDimensions,
};

export function getImageDimensions(base64Data, mimeType) {
  const read = Object.hasOwn(READERS, mimeType) ? READERS[mimeType] : undefined;
  return read ? read(base64Data) : null;
}

// Armin says hi: an easter egg drawing Armin's portrait (a 31x36 XBM
// bitmap, two pixel rows per line in half blocks) with one of seven
// reveal animations picked at random.
import { currentTheme } from "../ui/theme.js";

export const ARMIN_WIDTH = 31;
export const ARMIN_HEIGHT = 36;

// The portrait, least significant bit first; a 0 bit is a foreground pixel.
const BITS = [
  0xff, 0xff, 0xff, 0x7f, 0xff, 0xf0, 0xff, 0x7f, 0xff, 0xed, 0xff, 0x7f, 0xff, 0xdb, 0xff, 0x7f,
  0xff, 0xb7, 0xff, 0x7f, 0xff, 0x77, 0xfe, 0x7f, 0x3f, 0xf8, 0xfe, 0x7f, 0xdf, 0xff, 0xfe, 0x7f,
  0xdf, 0x3f, 0xfc, 0x7f, 0x9f, 0xc3, 0xfb, 0x7f, 0x6f, 0xfc, 0xf4, 0x7f, 0xf7, 0x0f, 0xf7, 0x7f,
  0xf7, 0xff, 0xf7, 0x7f, 0xf7, 0xff, 0xe3, 0x7f, 0xf7, 0x07, 0xe8, 0x7f, 0xef, 0xf8, 0x67, 0x70,
  0x0f, 0xff, 0xbb, 0x6f, 0xf1, 0x00, 0xd0, 0x5b, 0xfd, 0x3f, 0xec, 0x53, 0xc1, 0xff, 0xef, 0x57,
  0x9f, 0xfd, 0xee, 0x5f, 0x9f, 0xfc, 0xae, 0x5f, 0x1f, 0x78, 0xac, 0x5f, 0x3f, 0x00, 0x50, 0x6c,
  0x7f, 0x00, 0xdc, 0x77, 0xff, 0xc0, 0x3f, 0x78, 0xff, 0x01, 0xf8, 0x7f, 0xff, 0x03, 0x9c, 0x78,
  0xff, 0x07, 0x8c, 0x7c, 0xff, 0x0f, 0xce, 0x78, 0xff, 0xff, 0xcf, 0x7f, 0xff, 0xff, 0xcf, 0x78,
  0xff, 0xff, 0xdf, 0x78, 0xff, 0xff, 0xdf, 0x7d, 0xff, 0xff, 0x3f, 0x7e, 0xff, 0xff, 0xff, 0x7f,
];
const BYTES_PER_ROW = Math.ceil(ARMIN_WIDTH / 8);
const ROWS = Math.ceil(ARMIN_HEIGHT / 2);
const EFFECTS = ["typewriter", "scanline", "rain", "fade", "crt", "glitch", "dissolve"];
const NOISE = [" ", "░", "▒", "▓", "█", "▀", "▄"];
const MESSAGE = "ARMIN SAYS HI";

/** Whether the portrait's pixel at (x, y) is foreground. */
export function isArminPixel(x, y) {
  if (y >= ARMIN_HEIGHT) return false;
  const byte = BITS[y * BYTES_PER_ROW + Math.floor(x / 8)];
  return ((byte >> x % 8) & 1) === 0;
}

function halfBlock(x, row) {
  const upper = isArminPixel(x, row * 2);
  const lower = isArminPixel(x, row * 2 + 1);
  if (upper && lower) return "█";
  if (upper) return "▀";
  if (lower) return "▄";
  return " ";
}

const randomBelow = (count) => Math.floor(Math.random() * count);
const blankGrid = () => Array.from({ length: ROWS }, () => Array(ARMIN_WIDTH).fill(" "));

/** Every cell as [row, x], in a random order (Fisher-Yates). */
function shuffledCells() {
  const cells = [];
  for (let row = 0; row < ROWS; row++) for (let x = 0; x < ARMIN_WIDTH; x++) cells.push([row, x]);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  return cells;
}

export class ArminComponent {
  constructor(ui) {
    this.ui = ui;
    this.interval = null;
    this.effect = EFFECTS[randomBelow(EFFECTS.length)];
    this.finalGrid = Array.from({ length: ROWS }, (_, row) => Array.from({ length: ARMIN_WIDTH }, (_, x) => halfBlock(x, row)));
    this.currentGrid = blankGrid();
    this.effectState = {};
    this.cachedLines = [];
    this.cachedWidth = 0;
    // Bumped on every animation frame, so render knows when its lines are stale.
    this.gridVersion = 0;
    this.cachedVersion = -1;
    this.initEffect();
    this.startAnimation();
  }

  invalidate() {
    this.cachedWidth = 0;
  }

  render(width) {
    if (width === this.cachedWidth && this.cachedVersion === this.gridVersion) return this.cachedLines;
    const theme = currentTheme();
    // One column of left padding; rows are cut, before colouring, to what is left.
    const room = width - 1;
    const line = (text) => ` ${theme.fg("accent", text)}${" ".repeat(Math.max(0, room - text.length))}`;
    this.cachedLines = [...this.currentGrid.map((row) => line(row.slice(0, room).join(""))), line(MESSAGE)];
    this.cachedWidth = width;
    this.cachedVersion = this.gridVersion;
    return this.cachedLines;
  }

  initEffect() {
    switch (this.effect) {
      case "typewriter":
        this.effectState = { pos: 0 };
        break;
      case "scanline":
        this.effectState = { row: 0 };
        break;
      case "rain":
        // Each column's drop starts somewhere above the picture.
        this.effectState = { drops: Array.from({ length: ARMIN_WIDTH }, () => ({ y: -randomBelow(ROWS * 2), settled: 0 })) };
        break;
      case "fade":
        this.effectState = { positions: shuffledCells(), idx: 0 };
        break;
      case "crt":
        this.effectState = { expansion: 0 };
        break;
      case "glitch":
        this.effectState = { phase: 0, glitchFrames: 8 };
        break;
      case "dissolve":
        // Noise first, then the picture resolves cell by cell.
        this.currentGrid = Array.from({ length: ROWS }, () => Array.from({ length: ARMIN_WIDTH }, () => NOISE[randomBelow(NOISE.length)]));
        this.effectState = { positions: shuffledCells(), idx: 0 };
        break;
    }
  }

  startAnimation() {
    const fps = this.effect === "glitch" ? 60 : 30;
    this.interval = setInterval(() => {
      const done = this.tickEffect();
      this.updateDisplay();
      this.ui.requestRender();
      if (done) this.stopAnimation();
    }, 1000 / fps);
  }

  stopAnimation() {
    if (!this.interval) return;
    clearInterval(this.interval);
    this.interval = null;
  }

  /** One frame of the effect; true once the picture is complete. */
  tickEffect() {
    switch (this.effect) {
      case "typewriter":
        return this.revealInOrder(3, (pos) => [Math.floor(pos / ARMIN_WIDTH), pos % ARMIN_WIDTH], "pos");
      case "scanline":
        return this.tickScanline();
      case "rain":
        return this.tickRain();
      case "fade":
        return this.revealInOrder(15, (idx) => this.effectState.positions[idx], "idx");
      case "crt":
        return this.tickCrt();
      case "glitch":
        return this.tickGlitch();
      case "dissolve":
        return this.revealInOrder(20, (idx) => this.effectState.positions[idx], "idx");
      default:
        return true;
    }
  }

  /** Copies `perFrame` more cells of the picture, in the order `cellAt(counter)` gives; true when none are left. */
  revealInOrder(perFrame, cellAt, counter) {
    const state = this.effectState;
    for (let i = 0; i < perFrame; i++) {
      const cell = cellAt(state[counter]);
      if (!cell || cell[0] >= ROWS) return true;
      const [row, x] = cell;
      this.currentGrid[row][x] = this.finalGrid[row][x];
      state[counter]++;
    }
    return false;
  }

  tickScanline() {
    const state = this.effectState;
    if (state.row >= ROWS) return true;
    this.currentGrid[state.row] = [...this.finalGrid[state.row]];
    state.row++;
    return false;
  }

  tickRain() {
    const { drops } = this.effectState;
    let allSettled = true;
    this.currentGrid = blankGrid();
    for (let x = 0; x < ARMIN_WIDTH; x++) {
      const drop = drops[x];
      // The settled part of the column, from the bottom up.
      for (let row = ROWS - 1; row >= ROWS - drop.settled; row--) if (row >= 0) this.currentGrid[row][x] = this.finalGrid[row][x];
      if (drop.settled >= ROWS) continue;
      allSettled = false;
      // Where the next drop lands: the lowest drawn cell above what has settled.
      let targetRow = -1;
      for (let row = ROWS - 1 - drop.settled; row >= 0; row--) {
        if (this.finalGrid[row][x] !== " ") {
          targetRow = row;
          break;
        }
      }
      drop.y++;
      if (drop.y < 0 || drop.y >= ROWS) continue;
      if (targetRow >= 0 && drop.y >= targetRow) {
        drop.settled = ROWS - targetRow;
        drop.y = -randomBelow(5) - 1;
      } else {
        this.currentGrid[drop.y][x] = "▓";
      }
    }
    return allSettled;
  }

  tickCrt() {
    const state = this.effectState;
    const middle = Math.floor(ROWS / 2);
    this.currentGrid = blankGrid();
    // Rows open out from the middle, as an old screen warming up.
    for (let row = Math.max(0, middle - state.expansion); row <= Math.min(ROWS - 1, middle + state.expansion); row++) {
      this.currentGrid[row] = [...this.finalGrid[row]];
    }
    state.expansion++;
    return state.expansion > ROWS;
  }

  tickGlitch() {
    const state = this.effectState;
    if (state.phase >= state.glitchFrames) {
      this.currentGrid = this.finalGrid.map((row) => [...row]);
      return true;
    }
    this.currentGrid = this.finalGrid.map((row) => {
      const offset = randomBelow(7) - 3;
      // Some rows slide sideways, a few show another row.
      if (Math.random() < 0.3) return [...row.slice(offset), ...row.slice(0, offset)].slice(0, ARMIN_WIDTH);
      if (Math.random() < 0.2) return [...this.finalGrid[randomBelow(ROWS)]];
      return [...row];
    });
    state.phase++;
    return false;
  }

  updateDisplay() {
    this.gridVersion++;
  }

  dispose() {
    this.stopAnimation();
  }
}

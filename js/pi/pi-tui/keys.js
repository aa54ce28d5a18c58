// Terminal key input: legacy byte sequences, xterm modifyOtherKeys and the
// Kitty keyboard protocol, matched against key ids such as "ctrl+shift+p".
import { hostEnv } from "../host-env.js";

let kittyActive = false;

export function setKittyProtocolActive(active) {
  kittyActive = active;
}

export function isKittyProtocolActive() {
  return kittyActive;
}

const SPECIAL = [
  "escape", "esc", "enter", "return", "tab", "space", "backspace", "delete", "insert", "clear",
  "home", "end", "pageUp", "pageDown", "up", "down", "left", "right",
  "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
];
const SYMBOL_NAMES = {
  backtick: "`", hyphen: "-", equals: "=", leftbracket: "[", rightbracket: "]", backslash: "\\",
  semicolon: ";", quote: "'", comma: ",", period: ".", slash: "/", exclamation: "!", at: "@",
  hash: "#", dollar: "$", percent: "%", caret: "^", ampersand: "&", asterisk: "*", leftparen: "(",
  rightparen: ")", underscore: "_", plus: "+", pipe: "|", tilde: "~", leftbrace: "{", rightbrace: "}",
  colon: ":", lessthan: "<", greaterthan: ">", question: "?",
};
const COMBINATIONS = {
  ctrl: "ctrl", shift: "shift", alt: "alt", super: "super",
  ctrlShift: "ctrl+shift", shiftCtrl: "shift+ctrl", ctrlAlt: "ctrl+alt", altCtrl: "alt+ctrl",
  shiftAlt: "shift+alt", altShift: "alt+shift", ctrlSuper: "ctrl+super", superCtrl: "super+ctrl",
  shiftSuper: "shift+super", superShift: "super+shift", altSuper: "alt+super", superAlt: "super+alt",
  ctrlShiftAlt: "ctrl+shift+alt", ctrlShiftSuper: "ctrl+shift+super",
};

/** Key ids by name: Key.enter, Key.comma, Key.ctrl("c"), Key.ctrlShift("p"), ... */
export const Key = {};
for (const name of SPECIAL) Key[name] = name;
Object.assign(Key, SYMBOL_NAMES);
for (const [name, prefix] of Object.entries(COMBINATIONS)) Key[name] = (key) => `${prefix}+${key}`;

const SYMBOLS = new Set(Object.values(SYMBOL_NAMES));
const SHIFTED_SYMBOLS = new Set("~!@#$%^&*()_+|{}:<>?");

const SHIFT = 1;
const ALT = 2;
const CTRL = 4;
const SUPER = 8;
const LOCKS = 64 + 128; // caps lock, num lock: never part of a binding
const MODIFIER_BITS = { shift: SHIFT, alt: ALT, ctrl: CTRL, super: SUPER };

// Codepoints as Kitty reports them; keys without one get negative stand-ins.
const ESCAPE = 27;
const TAB = 9;
const ENTER = 13;
const SPACE = 32;
const BACKSPACE = 127;
const KP_ENTER = 57414;
const ARROWS = { up: -1, down: -2, right: -3, left: -4 };
const FUNCTIONAL = {
  delete: -10, insert: -11, pageUp: -12, pageDown: -13, home: -14, end: -15,
  f1: -21, f2: -22, f3: -23, f4: -24, f5: -25, f6: -26, f7: -27, f8: -28, f9: -29, f10: -30, f11: -31, f12: -32,
};
const KITTY_PUA_START = 57344;
const KITTY_PUA_END = 63743;

// Keypad keys are the same keys as their main-block counterparts.
const KEYPAD = new Map([
  ...Array.from({ length: 10 }, (_, d) => [57399 + d, 48 + d]),
  [57409, 46], [57410, 47], [57411, 42], [57412, 45], [57413, 43], [57415, 61], [57416, 44],
  [57417, ARROWS.left], [57418, ARROWS.right], [57419, ARROWS.up], [57420, ARROWS.down],
  [57421, FUNCTIONAL.pageUp], [57422, FUNCTIONAL.pageDown], [57423, FUNCTIONAL.home],
  [57424, FUNCTIONAL.end], [57425, FUNCTIONAL.insert], [57426, FUNCTIONAL.delete],
]);

const fromKeypad = (cp) => KEYPAD.get(cp) ?? cp;

// Shift+A is reported as "A" by some terminals and "a" by others.
function foldShiftedLetter(cp, modifier) {
  return (modifier & ~LOCKS & SHIFT) !== 0 && cp >= 65 && cp <= 90 ? cp + 32 : cp;
}

// A terminal that reports "+" as shift plus "=" also names the produced
// symbol; bindings name the symbol, so the shift is consumed by it.
function producedSymbol(cp, modifier, allowed) {
  if (cp === undefined || (modifier & SHIFT) === 0) return undefined;
  const key = fromKeypad(cp);
  if (!allowed.has(String.fromCharCode(key))) return undefined;
  return { codepoint: key, modifier: modifier & ~SHIFT };
}

const LEGACY = {
  up: ["\x1b[A", "\x1bOA"],
  down: ["\x1b[B", "\x1bOB"],
  right: ["\x1b[C", "\x1bOC"],
  left: ["\x1b[D", "\x1bOD"],
  home: ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"],
  end: ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"],
  insert: ["\x1b[2~"],
  delete: ["\x1b[3~"],
  pageUp: ["\x1b[5~", "\x1b[[5~"],
  pageDown: ["\x1b[6~", "\x1b[[6~"],
  clear: ["\x1b[E", "\x1bOE"],
  f1: ["\x1bOP", "\x1b[11~", "\x1b[[A"],
  f2: ["\x1bOQ", "\x1b[12~", "\x1b[[B"],
  f3: ["\x1bOR", "\x1b[13~", "\x1b[[C"],
  f4: ["\x1bOS", "\x1b[14~", "\x1b[[D"],
  f5: ["\x1b[15~", "\x1b[[E"],
  f6: ["\x1b[17~"],
  f7: ["\x1b[18~"],
  f8: ["\x1b[19~"],
  f9: ["\x1b[20~"],
  f10: ["\x1b[21~"],
  f11: ["\x1b[23~"],
  f12: ["\x1b[24~"],
};
// rxvt-style shift and ctrl variants.
const LEGACY_SHIFT = {
  up: "\x1b[a", down: "\x1b[b", right: "\x1b[c", left: "\x1b[d", clear: "\x1b[e",
  insert: "\x1b[2$", delete: "\x1b[3$", pageUp: "\x1b[5$", pageDown: "\x1b[6$", home: "\x1b[7$", end: "\x1b[8$",
};
const LEGACY_CTRL = {
  up: "\x1bOa", down: "\x1bOb", right: "\x1bOc", left: "\x1bOd", clear: "\x1bOe",
  insert: "\x1b[2^", delete: "\x1b[3^", pageUp: "\x1b[5^", pageDown: "\x1b[6^", home: "\x1b[7^", end: "\x1b[8^",
};

// parseKey's answers for fixed sequences, before the general rules.
const LEGACY_IDS = {
  "\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left", "\x1bOH": "home", "\x1bOF": "end",
  "\x1b[E": "clear", "\x1bOE": "clear", "\x1bOe": "ctrl+clear", "\x1b[e": "shift+clear",
  "\x1b[2~": "insert", "\x1b[2$": "shift+insert", "\x1b[2^": "ctrl+insert",
  "\x1b[3$": "shift+delete", "\x1b[3^": "ctrl+delete", "\x1b[[5~": "pageUp", "\x1b[[6~": "pageDown",
  "\x1b[a": "shift+up", "\x1b[b": "shift+down", "\x1b[c": "shift+right", "\x1b[d": "shift+left",
  "\x1bOa": "ctrl+up", "\x1bOb": "ctrl+down", "\x1bOc": "ctrl+right", "\x1bOd": "ctrl+left",
  "\x1b[5$": "shift+pageUp", "\x1b[6$": "shift+pageDown", "\x1b[7$": "shift+home", "\x1b[8$": "shift+end",
  "\x1b[5^": "ctrl+pageUp", "\x1b[6^": "ctrl+pageDown", "\x1b[7^": "ctrl+home", "\x1b[8^": "ctrl+end",
  "\x1bOP": "f1", "\x1bOQ": "f2", "\x1bOR": "f3", "\x1bOS": "f4",
  "\x1b[11~": "f1", "\x1b[12~": "f2", "\x1b[13~": "f3", "\x1b[14~": "f4",
  "\x1b[[A": "f1", "\x1b[[B": "f2", "\x1b[[C": "f3", "\x1b[[D": "f4", "\x1b[[E": "f5",
  "\x1b[15~": "f5", "\x1b[17~": "f6", "\x1b[18~": "f7", "\x1b[19~": "f8", "\x1b[20~": "f9",
  "\x1b[21~": "f10", "\x1b[23~": "f11", "\x1b[24~": "f12",
  "\x1bb": "alt+left", "\x1bf": "alt+right", "\x1bp": "alt+up", "\x1bn": "alt+down",
};

// Kitty flag 2 appends ":2" (repeat) or ":3" (release) to the modifier.
const EVENT_FINALS = ["u", "~", "A", "B", "C", "D", "H", "F", "P", "Q", "S"];

function hasEventMarker(data, type) {
  if (data.includes("\x1b[200~")) return false; // pasted text is never an event
  return EVENT_FINALS.some((final) => data.includes(`:${type}${final}`));
}

export function isKeyRelease(data) {
  return hasEventMarker(data, 3);
}

export function isKeyRepeat(data) {
  return hasEventMarker(data, 2);
}

function eventType(digits) {
  const n = digits ? parseInt(digits, 10) : 1;
  return n === 2 ? "repeat" : n === 3 ? "release" : "press";
}

const CSI_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;
const CSI_ARROW = /^\x1b\[1;(\d+)(?::(\d+))?([ABCD])$/;
const CSI_TILDE = /^\x1b\[(\d+)(?:;(\d+))?(?::(\d+))?~$/;
const CSI_HOME_END = /^\x1b\[1;(\d+)(?::(\d+))?([HF])$/;
const CSI_F1_F4 = /^\x1b\[(?:1;(\d+)(?::(\d+))?)?([PQS])$/;
const TILDE_KEYS = {
  2: FUNCTIONAL.insert, 3: FUNCTIONAL.delete, 5: FUNCTIONAL.pageUp, 6: FUNCTIONAL.pageDown,
  7: FUNCTIONAL.home, 8: FUNCTIONAL.end, 11: FUNCTIONAL.f1, 12: FUNCTIONAL.f2, 13: FUNCTIONAL.f3,
  14: FUNCTIONAL.f4, 15: FUNCTIONAL.f5, 17: FUNCTIONAL.f6, 18: FUNCTIONAL.f7, 19: FUNCTIONAL.f8,
  20: FUNCTIONAL.f9, 21: FUNCTIONAL.f10, 23: FUNCTIONAL.f11, 24: FUNCTIONAL.f12,
};
const ARROW_FINALS = { A: ARROWS.up, B: ARROWS.down, C: ARROWS.right, D: ARROWS.left };
const F_FINALS = { P: FUNCTIONAL.f1, Q: FUNCTIONAL.f2, S: FUNCTIONAL.f4 };

const modifierOf = (digits) => (digits ? parseInt(digits, 10) : 1) - 1;

/** A Kitty-protocol (or xterm CSI) key event, or null. */
function parseKitty(data) {
  let m = CSI_U.exec(data);
  if (m) {
    return {
      codepoint: parseInt(m[1], 10),
      shiftedKey: m[2] ? parseInt(m[2], 10) : undefined,
      baseLayoutKey: m[3] ? parseInt(m[3], 10) : undefined,
      modifier: modifierOf(m[4]),
      eventType: eventType(m[5]),
    };
  }
  if ((m = CSI_ARROW.exec(data))) {
    return { codepoint: ARROW_FINALS[m[3]], modifier: modifierOf(m[1]), eventType: eventType(m[2]) };
  }
  if ((m = CSI_TILDE.exec(data)) && TILDE_KEYS[parseInt(m[1], 10)] !== undefined) {
    return { codepoint: TILDE_KEYS[parseInt(m[1], 10)], modifier: modifierOf(m[2]), eventType: eventType(m[3]) };
  }
  if ((m = CSI_HOME_END.exec(data))) {
    const codepoint = m[3] === "H" ? FUNCTIONAL.home : FUNCTIONAL.end;
    return { codepoint, modifier: modifierOf(m[1]), eventType: eventType(m[2]) };
  }
  // F3 comes as CSI 13~: CSI 1;<mod>R would collide with cursor reports.
  if ((m = CSI_F1_F4.exec(data))) {
    return { codepoint: F_FINALS[m[3]], modifier: modifierOf(m[1]), eventType: eventType(m[2]) };
  }
  return null;
}

function isLatinLetter(cp) {
  return cp >= 97 && cp <= 122;
}

function kittyMatches(data, expectedCp, expectedMod) {
  const event = parseKitty(data);
  if (!event) return false;
  const mod = event.modifier & ~LOCKS;
  const wantMod = expectedMod & ~LOCKS;
  const cp = foldShiftedLetter(fromKeypad(event.codepoint), event.modifier);
  if (mod === wantMod && cp === foldShiftedLetter(fromKeypad(expectedCp), expectedMod)) return true;
  const produced = producedSymbol(event.shiftedKey, mod, SYMBOLS);
  if (produced && (produced.modifier & ~LOCKS) === wantMod && produced.codepoint === fromKeypad(expectedCp)) return true;
  if (mod !== wantMod) return false;
  // Non-Latin layouts: the key's position on a US layout stands in, but only
  // when the reported key is not itself a Latin letter or known symbol (on
  // remapped Latin layouts the reported key is the truth).
  return (
    event.baseLayoutKey !== undefined &&
    event.baseLayoutKey === expectedCp &&
    !isLatinLetter(cp) &&
    !SYMBOLS.has(String.fromCharCode(cp))
  );
}

const MODIFY_OTHER_KEYS = /^\x1b\[27;(\d+);(\d+)~$/;

function parseModifyOtherKeys(data) {
  const m = MODIFY_OTHER_KEYS.exec(data);
  return m ? { codepoint: parseInt(m[2], 10), modifier: parseInt(m[1], 10) - 1 } : null;
}

function modifyOtherKeysMatches(data, expectedCp, expectedMod) {
  const event = parseModifyOtherKeys(data);
  return event !== null && event.codepoint === expectedCp && event.modifier === expectedMod;
}

function printableModifyOtherKeysMatches(data, expectedCp, expectedMod) {
  const event = parseModifyOtherKeys(data);
  if (!event) return false;
  if (
    event.modifier === expectedMod &&
    foldShiftedLetter(event.codepoint, event.modifier) === foldShiftedLetter(expectedCp, expectedMod)
  ) {
    return true;
  }
  const produced = producedSymbol(event.codepoint, event.modifier, SHIFTED_SYMBOLS);
  return produced?.modifier === expectedMod && produced.codepoint === expectedCp;
}

// Windows Terminal sends a raw BS for ctrl+backspace; elsewhere BS is backspace.
function onWindowsTerminal() {
  const env = hostEnv();
  return Boolean(env.WT_SESSION) && !env.SSH_CONNECTION && !env.SSH_CLIENT && !env.SSH_TTY;
}

function rawBackspaceMatches(data, modifier) {
  if (data === "\x7f") return modifier === 0;
  if (data !== "\x08") return false;
  return onWindowsTerminal() ? modifier === CTRL : modifier === 0;
}

// The C0 byte ctrl+key sends: letters and [ \ ] _ by masking, "-" as "_".
function controlByte(key) {
  const c = key.toLowerCase();
  if (isLatinLetter(c.charCodeAt(0)) || c === "[" || c === "\\" || c === "]" || c === "_") {
    return String.fromCharCode(c.charCodeAt(0) & 0x1f);
  }
  return c === "-" ? "\x1f" : null;
}

function parseKeyId(keyId) {
  let key = keyId.toLowerCase();
  let modifier = 0;
  for (;;) {
    const name = ["shift", "alt", "ctrl", "super"].find((n) => key.startsWith(`${n}+`));
    if (!name) break;
    if (modifier & MODIFIER_BITS[name]) return null;
    modifier |= MODIFIER_BITS[name];
    key = key.slice(name.length + 1);
  }
  if (!key || (key.includes("+") && key !== "+")) return null;
  return { key, modifier };
}

// The common shape of navigation keys: legacy sequences unmodified, rxvt
// variants for shift and ctrl, Kitty for everything.
function navigationMatches(data, name, code, modifier) {
  if (modifier === 0) return (LEGACY[name] ?? []).includes(data) || kittyMatches(data, code, 0);
  if (modifier === SHIFT && LEGACY_SHIFT[name] === data) return true;
  if (modifier === CTRL && LEGACY_CTRL[name] === data) return true;
  return kittyMatches(data, code, modifier);
}

function enterMatches(data, modifier) {
  const kitty = (m) => kittyMatches(data, ENTER, m) || kittyMatches(data, KP_ENTER, m);
  if (modifier === SHIFT) {
    if (kitty(SHIFT) || modifyOtherKeysMatches(data, ENTER, SHIFT)) return true;
    // Under Kitty, ESC CR and LF are terminals' custom shift+enter mappings.
    return kittyActive && (data === "\x1b\r" || data === "\n");
  }
  if (modifier === ALT) {
    if (kitty(ALT) || modifyOtherKeysMatches(data, ENTER, ALT)) return true;
    return !kittyActive && data === "\x1b\r";
  }
  if (modifier === 0) {
    return data === "\r" || (!kittyActive && data === "\n") || data === "\x1bOM" || kitty(0);
  }
  return kitty(modifier) || modifyOtherKeysMatches(data, ENTER, modifier);
}

function withKitty(data, code, modifier) {
  return kittyMatches(data, code, modifier) || modifyOtherKeysMatches(data, code, modifier);
}

function namedKeyMatches(data, key, modifier) {
  switch (key) {
    case "escape":
    case "esc":
      return modifier === 0 && (data === "\x1b" || withKitty(data, ESCAPE, 0));
    case "space":
      if (!kittyActive && modifier === CTRL && data === "\x00") return true;
      if (!kittyActive && modifier === ALT && data === "\x1b ") return true;
      return (modifier === 0 && data === " ") || withKitty(data, SPACE, modifier);
    case "tab":
      if (modifier === SHIFT) return data === "\x1b[Z" || withKitty(data, TAB, SHIFT);
      if (modifier === 0) return data === "\t" || kittyMatches(data, TAB, 0);
      return withKitty(data, TAB, modifier);
    case "enter":
    case "return":
      return enterMatches(data, modifier);
    case "backspace":
      if (modifier === ALT && (data === "\x1b\x7f" || data === "\x1b\b")) return true;
      if ((modifier === CTRL || modifier === 0) && rawBackspaceMatches(data, modifier)) return true;
      return withKitty(data, BACKSPACE, modifier);
    case "clear":
      if (modifier === 0) return LEGACY.clear.includes(data);
      return (modifier === SHIFT && LEGACY_SHIFT.clear === data) || (modifier === CTRL && LEGACY_CTRL.clear === data);
    case "insert":
    case "delete":
    case "home":
    case "end":
      return navigationMatches(data, key, FUNCTIONAL[key], modifier);
    case "pageup":
      return navigationMatches(data, "pageUp", FUNCTIONAL.pageUp, modifier);
    case "pagedown":
      return navigationMatches(data, "pageDown", FUNCTIONAL.pageDown, modifier);
    case "up":
    case "down":
      if (modifier === ALT) return data === (key === "up" ? "\x1bp" : "\x1bn") || kittyMatches(data, ARROWS[key], ALT);
      return navigationMatches(data, key, ARROWS[key], modifier);
    case "left":
    case "right": {
      const [csi, letter, upper] = key === "left" ? ["D", "b", "B"] : ["C", "f", "F"];
      if (modifier === ALT) {
        return (
          data === `\x1b[1;3${csi}` ||
          (!kittyActive && data === `\x1b${upper}`) ||
          data === `\x1b${letter}` ||
          kittyMatches(data, ARROWS[key], ALT)
        );
      }
      if (modifier === CTRL) {
        return data === `\x1b[1;5${csi}` || LEGACY_CTRL[key] === data || kittyMatches(data, ARROWS[key], CTRL);
      }
      return navigationMatches(data, key, ARROWS[key], modifier);
    }
  }
  if (/^f([1-9]|1[0-2])$/.test(key)) {
    if (modifier === 0 && LEGACY[key].includes(data)) return true;
    return kittyMatches(data, FUNCTIONAL[key], modifier);
  }
  return undefined;
}

function printableKeyMatches(data, key, modifier) {
  const cp = key.charCodeAt(0);
  const ctrlByte = controlByte(key);
  const letter = isLatinLetter(cp);
  const kittyOrXterm = (m) => kittyMatches(data, cp, m) || printableModifyOtherKeysMatches(data, cp, m);
  // Legacy terminals send ESC before the key for alt, and before the control
  // byte for ctrl+alt; failing those, tmux may still send CSI u forms.
  if (!kittyActive && modifier === CTRL + ALT && ctrlByte && data === `\x1b${ctrlByte}`) return true;
  if (!kittyActive && modifier === ALT && data === `\x1b${key}`) return true;
  if (modifier === CTRL) return (ctrlByte !== null && data === ctrlByte) || kittyOrXterm(CTRL);
  if (modifier === SHIFT && letter && data === key.toUpperCase()) return true;
  if (modifier !== 0) return kittyOrXterm(modifier);
  return data === key || kittyOrXterm(0);
}

/** Whether raw terminal input `data` is the key `keyId` ("ctrl+c", "shift+tab", ...). */
export function matchesKey(data, keyId) {
  const parsed = parseKeyId(keyId);
  if (!parsed) return false;
  const { key, modifier } = parsed;
  const named = namedKeyMatches(data, key, modifier);
  if (named !== undefined) return named;
  if (key.length === 1 && (isLatinLetter(key.charCodeAt(0)) || (key >= "0" && key <= "9") || SYMBOLS.has(key))) {
    return printableKeyMatches(data, key, modifier);
  }
  return false;
}

function keyName(cp) {
  if (cp === ESCAPE) return "escape";
  if (cp === TAB) return "tab";
  if (cp === ENTER || cp === KP_ENTER) return "enter";
  if (cp === SPACE) return "space";
  if (cp === BACKSPACE) return "backspace";
  for (const [name, code] of Object.entries(FUNCTIONAL)) if (code === cp) return name;
  for (const [name, code] of Object.entries(ARROWS)) if (code === cp) return name;
  if ((cp >= 48 && cp <= 57) || isLatinLetter(cp) || SYMBOLS.has(String.fromCharCode(cp))) {
    return String.fromCharCode(cp);
  }
  return undefined;
}

function describe(cp, modifier, baseLayoutKey) {
  const identity = foldShiftedLetter(fromKeypad(cp), modifier);
  const known =
    isLatinLetter(identity) || (identity >= 48 && identity <= 57) || SYMBOLS.has(String.fromCharCode(identity));
  const name = keyName(known ? identity : (baseLayoutKey ?? identity));
  if (!name) return undefined;
  const mod = modifier & ~LOCKS;
  if (mod & ~(SHIFT | CTRL | ALT | SUPER)) return undefined;
  const parts = [];
  if (mod & SHIFT) parts.push("shift");
  if (mod & CTRL) parts.push("ctrl");
  if (mod & ALT) parts.push("alt");
  if (mod & SUPER) parts.push("super");
  parts.push(name);
  return parts.join("+");
}

// Single-sequence answers of parseKey that do not depend on the protocol.
const FIXED_IDS = {
  "\x1b": "escape", "\x1c": "ctrl+\\", "\x1d": "ctrl+]", "\x1f": "ctrl+-",
  "\x1b\x1b": "ctrl+alt+[", "\x1b\x1c": "ctrl+alt+\\", "\x1b\x1d": "ctrl+alt+]", "\x1b\x1f": "ctrl+alt+-",
  "\t": "tab",
};

/** The key id of raw terminal input, or undefined when it is not one key. */
export function parseKey(data) {
  const kitty = parseKitty(data);
  if (kitty) {
    const produced = producedSymbol(kitty.shiftedKey, kitty.modifier, SYMBOLS);
    return describe(produced?.codepoint ?? kitty.codepoint, produced?.modifier ?? kitty.modifier, kitty.baseLayoutKey);
  }
  const xterm = parseModifyOtherKeys(data);
  if (xterm) {
    const produced = producedSymbol(xterm.codepoint, xterm.modifier, SHIFTED_SYMBOLS);
    return describe(produced?.codepoint ?? xterm.codepoint, produced?.modifier ?? xterm.modifier);
  }
  if (kittyActive && (data === "\x1b\r" || data === "\n")) return "shift+enter";
  if (Object.hasOwn(LEGACY_IDS, data)) return LEGACY_IDS[data];
  if (Object.hasOwn(FIXED_IDS, data)) return FIXED_IDS[data];
  if (data === "\r" || (!kittyActive && data === "\n") || data === "\x1bOM") return "enter";
  if (data === "\x00") return "ctrl+space";
  if (data === " ") return "space";
  if (data === "\x7f") return "backspace";
  if (data === "\x08") return onWindowsTerminal() ? "ctrl+backspace" : "backspace";
  if (data === "\x1b[Z") return "shift+tab";
  if (!kittyActive && data === "\x1b\r") return "alt+enter";
  if (!kittyActive && data === "\x1b ") return "alt+space";
  if (data === "\x1b\x7f" || data === "\x1b\b") return "alt+backspace";
  if (!kittyActive && data === "\x1bB") return "alt+left";
  if (!kittyActive && data === "\x1bF") return "alt+right";
  if (!kittyActive && data.length === 2 && data[0] === "\x1b") {
    const code = data.charCodeAt(1);
    if (code >= 1 && code <= 26) return `ctrl+alt+${String.fromCharCode(code + 96)}`;
    if (isLatinLetter(code) || (code >= 48 && code <= 57) || SYMBOLS.has(data[1])) return `alt+${data[1]}`;
  }
  const plain = {
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
    "\x1b[H": "home", "\x1b[F": "end", "\x1b[3~": "delete", "\x1b[5~": "pageUp", "\x1b[6~": "pageDown",
  }[data];
  if (plain) return plain;
  if (data.length === 1) {
    const code = data.charCodeAt(0);
    if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
    if (code >= 32 && code <= 126) return data;
  }
  return undefined;
}

/** The character a Kitty CSI u sequence types, for plain or shifted keys. */
export function decodeKittyPrintable(data) {
  const m = CSI_U.exec(data);
  if (!m) return undefined;
  const codepoint = parseInt(m[1], 10);
  const shifted = m[2] ? parseInt(m[2], 10) : undefined;
  const modifier = modifierOf(m[4]);
  if (modifier & ~(SHIFT | LOCKS)) return undefined;
  let cp = modifier & SHIFT && shifted !== undefined ? shifted : codepoint;
  cp = fromKeypad(cp);
  if (!Number.isFinite(cp) || cp < 32) return undefined;
  if (cp >= KITTY_PUA_START && cp <= KITTY_PUA_END) return undefined;
  try {
    return String.fromCodePoint(cp);
  } catch {
    return undefined;
  }
}

/** The character typed by a Kitty or modifyOtherKeys sequence, if any. */
export function decodePrintableKey(data) {
  const kitty = decodeKittyPrintable(data);
  if (kitty !== undefined) return kitty;
  const event = parseModifyOtherKeys(data);
  if (!event || (event.modifier & ~LOCKS & ~SHIFT) !== 0 || event.codepoint < 32) return undefined;
  try {
    return String.fromCodePoint(event.codepoint);
  } catch {
    return undefined;
  }
}

// What a terminal sends for each unmodified key (xterm's legacy sequences).
const PLAIN_SEQUENCES = {
  escape: "\x1b", esc: "\x1b", enter: "\r", return: "\r", tab: "\t", space: " ", backspace: "\x7f",
  up: "\x1b[A", down: "\x1b[B", right: "\x1b[C", left: "\x1b[D", home: "\x1b[H", end: "\x1b[F",
  insert: "\x1b[2~", delete: "\x1b[3~", pageup: "\x1b[5~", pagedown: "\x1b[6~", clear: "\x1b[E",
  ...Object.fromEntries(Object.entries(LEGACY).filter(([name]) => /^f\d+$/.test(name)).map(([name, [first]]) => [name, first])),
};
const CSI_FINALS = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F", f1: "P", f2: "Q", f4: "S" };
const TILDE_NUMBERS = {
  insert: 2, delete: 3, pageup: 5, pagedown: 6, f3: 13, f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};
const KITTY_CODES = { escape: ESCAPE, esc: ESCAPE, enter: ENTER, return: ENTER, tab: TAB, space: SPACE, backspace: BACKSPACE };

function modifiedSequence(key, modifier) {
  const parameter = modifier + 1;
  if (CSI_FINALS[key]) return `\x1b[1;${parameter}${CSI_FINALS[key]}`;
  if (TILDE_NUMBERS[key]) return `\x1b[${TILDE_NUMBERS[key]};${parameter}~`;
  if (key === "tab" && modifier === SHIFT) return "\x1b[Z";
  const code = KITTY_CODES[key] ?? (key.length === 1 ? key.charCodeAt(0) : undefined);
  return code === undefined ? undefined : `\x1b[${code};${parameter}u`;
}

/**
 * The raw input a terminal sends for key id `keyId` ("down", "ctrl+c",
 * "shift+tab", "a"): legacy bytes where a plain terminal has them, Kitty's
 * CSI-u form for the other modified keys. Undefined for a name matchesKey
 * would not accept the answer for.
 */
export function encodeKey(keyId) {
  const parsed = parseKeyId(keyId);
  if (!parsed) return undefined;
  const { key, modifier } = parsed;
  let sequence;
  if (modifier === 0) sequence = PLAIN_SEQUENCES[key] ?? (key.length === 1 ? key : undefined);
  else if (modifier === CTRL && key.length === 1 && controlByte(key)) sequence = controlByte(key);
  else if (modifier === SHIFT && key.length === 1 && isLatinLetter(key.charCodeAt(0))) sequence = key.toUpperCase();
  else sequence = modifiedSequence(key, modifier);
  return sequence !== undefined && matchesKey(sequence, keyId) ? sequence : undefined;
}

// Intl as Node 22 gives it, for the engines that lack it. The QuickJS
// backend ships stand-ins that format nothing (`(1234.5).toLocaleString()`
// is "1234.5" there, Node says "1,234.5") and an Intl.Segmenter that does not
// segment. Each piece below is installed only when a feature test shows the
// engine's own is not the real thing, so a V8 build keeps its ICU.
//
// Covered (English only; see docs/intl.md for the list):
// - NumberFormat, Number#toLocaleString and BigInt#toLocaleString: decimal,
//   percent, currency (symbols of common currencies, codes otherwise),
//   compact, scientific and engineering notation, every digit, rounding,
//   grouping and sign option, formatToParts, resolvedOptions;
// - Segmenter: graphemes (pi-tui's UAX #29 clusters), words (pi-tui's word
//   rules) and sentences (terminators), with segment() iterables and
//   containing();
// - DateTimeFormat and Date#toLocale(Date|Time)String: en-US patterns for
//   dateStyle/timeStyle and the component options, time zones (UTC, the
//   local zone, IANA names through the engine's time zone table),
//   formatToParts, resolvedOptions;
// - PluralRules (English cardinal and ordinal), RelativeTimeFormat and
//   getCanonicalLocales.
// Only "en" and "en-US" are available locales: any other falls back to
// "en-US", as Intl does for a locale it has no data for, and
// supportedLocalesOf says so.
import { graphemes } from "pihost:pi/pi-tui/unicode.js";
import { segmentWords } from "pihost:pi/pi-tui/words.js";
import { core } from "pihost:runtime/ops.js";

const engineIntl = globalThis.Intl ?? {};
// The engine's IANA time zone table (QuickJS backend): (ms, zone) → wall-clock fields.
const zoneFields = globalThis.__v8xTemporalTimeZone;

function works(test) {
  try {
    return test() === true;
  } catch {
    return false;
  }
}

// --- locales ---------------------------------------------------------------

const DEFAULT_LOCALE = "en-US";
const AVAILABLE_LOCALES = new Set(["en", "en-US"]);
const LANGUAGE_TAG =
  /^(?:[a-z]{2,3}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[\da-wyz](?:-[a-z\d]{2,8})+)*(?:-x(?:-[a-z\d]{1,8})+)?$/i;

function canonicalTag(tag) {
  if (typeof tag !== "string" && (typeof tag !== "object" || tag === null)) {
    throw new TypeError("Language ID should be string or object.");
  }
  const text = String(tag);
  if (!LANGUAGE_TAG.test(text)) throw new RangeError(`Incorrect locale information provided`);
  const parts = text.toLowerCase().split("-");
  let extension = false;
  return parts
    .map((part, index) => {
      if (index === 0 || extension) return part;
      if (part.length === 1) {
        extension = true;
        return part;
      }
      if (part.length === 4 && index === 1) return part[0].toUpperCase() + part.slice(1);
      if (part.length === 2) return part.toUpperCase();
      return part;
    })
    .join("-");
}

function canonicalLocaleList(locales) {
  if (locales === undefined) return [];
  const list = typeof locales === "string" || locales instanceof (globalThis.Intl?.Locale ?? Object) ? [locales] : locales;
  const seen = [];
  for (const locale of Array.from(Object(list))) {
    const tag = canonicalTag(locale);
    if (!seen.includes(tag)) seen.push(tag);
  }
  return seen;
}

/**
 * The available locale a request resolves to (the spec's lookup matcher),
 * and the Unicode extension keywords of the request that `relevant` (key →
 * supported values) keeps: { locale, keywords }. The locale string carries
 * the kept keywords, as Intl reports them.
 */
function resolveLocale(locales, relevant = {}, available = AVAILABLE_LOCALES) {
  for (const requested of canonicalLocaleList(locales)) {
    const extension = /-u((?:-[a-z\d]{2,8})+)/i.exec(requested);
    let candidate = requested.replace(/-u(?:-[a-z\d]{2,8})+/gi, "");
    while (candidate) {
      if (available.has(candidate)) return withKeywords(candidate, extension?.[1], relevant);
      const cut = candidate.lastIndexOf("-");
      if (cut < 0) break;
      candidate = candidate.slice(0, cut);
      if (/-[a-z\d]$/i.test(candidate)) candidate = candidate.slice(0, -2);
    }
  }
  return { locale: DEFAULT_LOCALE, keywords: {} };
}

function withKeywords(locale, extension, relevant) {
  const keywords = {};
  if (extension) {
    const pieces = extension.slice(1).toLowerCase().split("-");
    for (let i = 0; i < pieces.length; i++) {
      if (pieces[i].length !== 2) continue;
      const value = pieces[i + 1] && pieces[i + 1].length > 2 ? pieces[i + 1] : "true";
      if (relevant[pieces[i]]?.includes(value)) keywords[pieces[i]] = value;
    }
  }
  const kept = Object.entries(keywords).map(([key, value]) => `${key}-${value}`);
  return { locale: kept.length ? `${locale}-u-${kept.join("-")}` : locale, keywords };
}

function lookupLocale(locales) {
  return resolveLocale(locales).locale;
}

function supportedLocalesOf(locales) {
  return canonicalLocaleList(locales).filter((tag) => {
    const language = tag.replace(/-u(?:-[a-z\d]{2,8})+/gi, "");
    return AVAILABLE_LOCALES.has(language) || AVAILABLE_LOCALES.has(language.split("-")[0]);
  });
}

function getCanonicalLocales(locales) {
  return canonicalLocaleList(locales);
}

// --- options ---------------------------------------------------------------

function optionsObject(options) {
  if (options === undefined) return Object.create(null);
  if (options === null) throw new TypeError("Cannot convert undefined or null to object");
  return Object(options);
}

function getOption(options, name, allowed, fallback, constructorName) {
  const value = options[name];
  if (value === undefined) return fallback;
  const text = String(value);
  if (allowed && !allowed.includes(text)) {
    throw new RangeError(`Value ${text} out of range for ${constructorName} options property ${name}`);
  }
  return text;
}

function getBoolean(options, name) {
  const value = options[name];
  return value === undefined ? undefined : Boolean(value);
}

function getNumberOption(options, name, minimum, maximum, fallback) {
  const value = options[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (Number.isNaN(number) || number < minimum || number > maximum) {
    throw new RangeError(`${name} value is out of range.`);
  }
  return Math.floor(number);
}

// --- exact decimals ----------------------------------------------------------
// A value to format is { negative, digits, exponent }: the decimal digits
// (no leading zeros, "0" for zero) with the decimal point after
// `exponent + 1` of them. Numbers give their shortest round-trip digits, as
// ICU does, so 1.005 rounds to 1.01 with two fraction digits.

function decimalOfNumber(number) {
  const negative = number < 0 || Object.is(number, -0);
  if (number === 0) return { negative, digits: "0", exponent: 0 };
  const [mantissa, power] = Math.abs(number).toExponential().split("e");
  return { negative, digits: mantissa.replace(".", ""), exponent: Number(power) };
}

function decimalOfString(text) {
  const trimmed = text.trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(trimmed);
  if (!match) return { negative: false, digits: "0", exponent: 0 };
  const negative = match[1] === "-";
  const whole = match[2] ?? "";
  const fraction = match[3] ?? "";
  const all = `${whole}${fraction}`;
  const firstNonZero = all.search(/[1-9]/);
  if (firstNonZero < 0) return { negative, digits: "0", exponent: 0 };
  const digits = all.slice(firstNonZero).replace(/0+$/, "") || "0";
  const exponent = whole.length - 1 - firstNonZero + Number(match[4] ?? 0);
  return { negative, digits, exponent };
}

function decimalOf(value) {
  if (typeof value === "bigint") {
    const negative = value < 0n;
    const digits = (negative ? -value : value).toString();
    const trimmed = digits.replace(/0+$/, "") || "0";
    return { negative, digits: trimmed, exponent: digits === "0" ? 0 : digits.length - 1 };
  }
  if (typeof value === "string") return decimalOfString(value);
  return decimalOfNumber(Number(value));
}

function isZero(decimal) {
  return decimal.digits === "0";
}

/** Whether rounding away the digits from `cut` on goes up, by mode. */
function roundsUp(decimal, cut, mode) {
  const digits = decimal.digits;
  if (cut >= digits.length) return false;
  const rest = digits.slice(Math.max(cut, 0));
  const restIsZero = !/[1-9]/.test(rest) && cut >= 0;
  if (restIsZero) return false;
  const first = cut < 0 ? 0 : Number(digits[cut]);
  const beyondHalf = cut < 0 ? false : /[1-9]/.test(digits.slice(cut + 1));
  // With cut < 0 the kept part is zero and the rest is below half of the unit.
  const half = cut < 0 ? false : first === 5 && !beyondHalf;
  const above = cut < 0 ? false : first > 5 || (first === 5 && beyondHalf);
  const lastKept = cut > 0 ? Number(digits[cut - 1]) : 0;
  const negative = decimal.negative;
  switch (mode) {
    case "ceil":
      return !negative;
    case "floor":
      return negative;
    case "expand":
      return true;
    case "trunc":
      return false;
    case "halfCeil":
      return above || (half && !negative);
    case "halfFloor":
      return above || (half && negative);
    case "halfTrunc":
      return above;
    case "halfEven":
      return above || (half && lastKept % 2 === 1);
    default:
      return above || half;
  }
}

/** `decimal` rounded at the digit whose place is 10^place. */
function roundAtPlace(decimal, place, mode) {
  if (isZero(decimal)) return { ...decimal };
  // How many of the digits stay: those at places ≥ `place`.
  const keep = decimal.exponent - place + 1;
  if (keep >= decimal.digits.length) return { ...decimal };
  const up = roundsUp(decimal, keep, mode);
  let kept = keep > 0 ? decimal.digits.slice(0, keep) : "";
  let exponent = decimal.exponent;
  if (up) {
    if (kept === "") {
      kept = "1";
      exponent = place;
    } else {
      const bumped = (BigInt(kept) + 1n).toString();
      if (bumped.length > kept.length) exponent += 1;
      kept = bumped;
    }
  }
  kept = kept.replace(/0+$/, "");
  if (kept === "") return { negative: decimal.negative, digits: "0", exponent: 0 };
  return { negative: decimal.negative, digits: kept, exponent };
}

/** Integer and fraction digit strings of `decimal`, with at least `minFraction` fraction digits. */
function toFixedParts(decimal, minFraction) {
  if (isZero(decimal)) return { integer: "0", fraction: "0".repeat(minFraction) };
  const { digits, exponent } = decimal;
  let integer;
  let fraction;
  if (exponent < 0) {
    integer = "0";
    fraction = "0".repeat(-exponent - 1) + digits;
  } else if (digits.length > exponent + 1) {
    integer = digits.slice(0, exponent + 1);
    fraction = digits.slice(exponent + 1);
  } else {
    integer = digits + "0".repeat(exponent + 1 - digits.length);
    fraction = "";
  }
  if (fraction.length < minFraction) fraction += "0".repeat(minFraction - fraction.length);
  return { integer, fraction };
}

function fractionDigitsOf(decimal) {
  return Math.max(0, decimal.digits.length - decimal.exponent - 1);
}

/** ToRawFixed: rounded to at most `maxFraction` digits, at least `minFraction` shown. */
function rawFixed(decimal, minFraction, maxFraction, mode) {
  const rounded = roundAtPlace(decimal, -maxFraction, mode);
  const parts = toFixedParts(rounded, minFraction);
  return { rounded, ...parts, magnitude: -maxFraction };
}

/** ToRawPrecision: rounded to at most `maxSignificant` digits, at least `minSignificant` shown. */
function rawPrecision(decimal, minSignificant, maxSignificant, mode) {
  if (isZero(decimal)) {
    const parts = toFixedParts(decimal, Math.max(0, minSignificant - 1));
    return { rounded: decimal, ...parts, magnitude: -(maxSignificant - 1) };
  }
  const place = decimal.exponent - maxSignificant + 1;
  const rounded = roundAtPlace(decimal, place, mode);
  const shownFraction = Math.max(0, minSignificant - rounded.exponent - 1);
  const parts = toFixedParts(rounded, shownFraction);
  return { rounded, ...parts, magnitude: rounded.exponent - maxSignificant + 1 };
}

// --- NumberFormat ----------------------------------------------------------

const CURRENCIES = {
  // code: [symbol, narrow symbol, fraction digits, singular name, plural name]
  USD: ["$", "$", 2, "US dollar", "US dollars"],
  EUR: ["€", "€", 2, "euro", "euros"],
  GBP: ["£", "£", 2, "British pound", "British pounds"],
  JPY: ["¥", "¥", 0, "Japanese yen", "Japanese yen"],
  CNY: ["CN¥", "¥", 2, "Chinese yuan", "Chinese yuan"],
  INR: ["₹", "₹", 2, "Indian rupee", "Indian rupees"],
  CAD: ["CA$", "$", 2, "Canadian dollar", "Canadian dollars"],
  AUD: ["A$", "$", 2, "Australian dollar", "Australian dollars"],
  CHF: ["CHF", "CHF", 2, "Swiss franc", "Swiss francs"],
  KRW: ["₩", "₩", 0, "South Korean won", "South Korean won"],
  BRL: ["R$", "R$", 2, "Brazilian real", "Brazilian reals"],
  MXN: ["MX$", "$", 2, "Mexican peso", "Mexican pesos"],
};

const COMPACT = {
  short: { 3: "K", 6: "M", 9: "B", 12: "T" },
  long: { 3: " thousand", 6: " million", 9: " billion", 12: " trillion" },
};

const NUMBER_STYLES = ["decimal", "percent", "currency", "unit"];
const ROUNDING_MODES = ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"];
const ROUNDING_INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];
const SIMPLE_UNITS = {
  // unit: [short, narrow, long singular, long plural]
  percent: ["%", "%", " percent", " percent"],
  byte: [" byte", "B", " byte", " bytes"],
  kilobyte: [" kB", "kB", " kilobyte", " kilobytes"],
  megabyte: [" MB", "MB", " megabyte", " megabytes"],
  gigabyte: [" GB", "GB", " gigabyte", " gigabytes"],
  terabyte: [" TB", "TB", " terabyte", " terabytes"],
  millisecond: [" ms", "ms", " millisecond", " milliseconds"],
  second: [" sec", "s", " second", " seconds"],
  minute: [" min", "m", " minute", " minutes"],
  hour: [" hr", "h", " hour", " hours"],
  day: [" days", "d", " day", " days"],
};
const SHORT_UNIT_SINGULAR = { day: " day" };

class NumberFormat {
  #options;
  #boundFormat;

  constructor(locales, options) {
    const { locale } = resolveLocale(locales, { nu: ["latn"] });
    options = optionsObject(options);
    const name = "Intl.NumberFormat";
    getOption(options, "localeMatcher", ["lookup", "best fit"], "best fit", name);
    const numberingSystem = options.numberingSystem;
    if (numberingSystem !== undefined && !/^[a-z\d]{3,8}(-[a-z\d]{3,8})*$/i.test(String(numberingSystem))) {
      throw new RangeError("Invalid numberingSystem : " + String(numberingSystem));
    }
    const style = getOption(options, "style", NUMBER_STYLES, "decimal", name);
    let currency = options.currency;
    if (currency !== undefined) {
      currency = String(currency);
      if (!/^[a-z]{3}$/i.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
      currency = currency.toUpperCase();
    }
    const currencyDisplay = getOption(options, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol", name);
    const currencySign = getOption(options, "currencySign", ["standard", "accounting"], "standard", name);
    let unit = options.unit;
    if (unit !== undefined) unit = String(unit);
    const unitDisplay = getOption(options, "unitDisplay", ["short", "narrow", "long"], "short", name);
    if (style === "currency" && currency === undefined) throw new TypeError("Currency code is required with currency style.");
    if (style === "unit") {
      if (unit === undefined) throw new TypeError("Unit is required with unit style.");
      if (!Object.hasOwn(SIMPLE_UNITS, unit)) throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
    }
    const notation = getOption(options, "notation", ["standard", "scientific", "engineering", "compact"], "standard", name);
    const currencyDigits = style === "currency" ? (CURRENCIES[currency]?.[2] ?? 2) : 0;
    const defaultMinFraction = style === "currency" && notation !== "compact" ? currencyDigits : 0;
    const defaultMaxFraction =
      style === "currency" && notation !== "compact" ? Math.max(currencyDigits, 0) : style === "percent" ? 0 : 3;
    const digits = digitOptions(options, defaultMinFraction, defaultMaxFraction, notation);
    const compactDisplay = getOption(options, "compactDisplay", ["short", "long"], "short", name);
    const defaultGrouping = notation === "compact" ? "min2" : "auto";
    const useGrouping = groupingOption(options, defaultGrouping);
    const signDisplay = getOption(options, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto", name);
    this.#options = {
      locale,
      numberingSystem: "latn",
      style,
      ...(style === "currency" ? { currency, currencyDisplay, currencySign } : {}),
      ...(style === "unit" ? { unit, unitDisplay } : {}),
      minimumIntegerDigits: digits.minimumIntegerDigits,
      ...(digits.minimumFractionDigits !== undefined
        ? { minimumFractionDigits: digits.minimumFractionDigits, maximumFractionDigits: digits.maximumFractionDigits }
        : {}),
      ...(digits.minimumSignificantDigits !== undefined
        ? {
            minimumSignificantDigits: digits.minimumSignificantDigits,
            maximumSignificantDigits: digits.maximumSignificantDigits,
          }
        : {}),
      useGrouping,
      notation,
      ...(notation === "compact" ? { compactDisplay } : {}),
      signDisplay,
      roundingIncrement: digits.roundingIncrement,
      roundingMode: digits.roundingMode,
      roundingPriority: digits.roundingPriority,
      trailingZeroDisplay: digits.trailingZeroDisplay,
    };
    this.roundingType = digits.roundingType;
  }

  get format() {
    this.#boundFormat ??= (value) => this.#parts(value).map((part) => part.value).join("");
    return this.#boundFormat;
  }

  formatToParts(value) {
    return this.#parts(value);
  }

  formatRange(start, end) {
    if (start === undefined || end === undefined) throw new TypeError("start or end is undefined");
    const from = this.format(start);
    const to = this.format(end);
    return from === to ? `~${from}` : `${from}–${to}`;
  }

  resolvedOptions() {
    return { ...this.#options };
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  #parts(value) {
    return formatNumberToParts(this.#options, this.roundingType, toNumeric(value));
  }

  get [Symbol.toStringTag]() {
    return "Intl.NumberFormat";
  }
}

/** A number, a bigint, or a string that is an exact decimal (Intl's string values). */
function toNumeric(value) {
  const primitive = typeof value === "object" && value !== null ? value.valueOf() : value;
  if (typeof primitive === "bigint") return primitive;
  if (typeof primitive === "string" && EXACT_DECIMAL.test(primitive.trim())) return primitive;
  return Number(primitive);
}
const EXACT_DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

function digitOptions(options, defaultMinFraction, defaultMaxFraction, notation) {
  const minimumIntegerDigits = getNumberOption(options, "minimumIntegerDigits", 1, 21, 1);
  const rawMinFraction = options.minimumFractionDigits;
  const rawMaxFraction = options.maximumFractionDigits;
  const rawMinSignificant = options.minimumSignificantDigits;
  const rawMaxSignificant = options.maximumSignificantDigits;
  const roundingIncrement = getNumberOption(options, "roundingIncrement", 1, 5000, 1);
  if (!ROUNDING_INCREMENTS.includes(roundingIncrement)) throw new RangeError("roundingIncrement value is out of range.");
  const name = "Intl.NumberFormat";
  const roundingMode = getOption(options, "roundingMode", ROUNDING_MODES, "halfExpand", name);
  const roundingPriority = getOption(options, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto", name);
  const trailingZeroDisplay = getOption(options, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto", name);
  const result = { minimumIntegerDigits, roundingIncrement, roundingMode, roundingPriority, trailingZeroDisplay };
  const hasSignificant = rawMinSignificant !== undefined || rawMaxSignificant !== undefined;
  const hasFraction = rawMinFraction !== undefined || rawMaxFraction !== undefined;
  let needSignificant = true;
  let needFraction = true;
  if (roundingPriority === "auto") {
    needSignificant = hasSignificant;
    if (needSignificant || (!hasFraction && notation === "compact")) needFraction = false;
  }
  if (needSignificant) {
    if (hasSignificant) {
      result.minimumSignificantDigits = getNumberOption(options, "minimumSignificantDigits", 1, 21, 1);
      result.maximumSignificantDigits = getNumberOption(
        options,
        "maximumSignificantDigits",
        result.minimumSignificantDigits,
        21,
        21,
      );
    } else {
      result.minimumSignificantDigits = 1;
      result.maximumSignificantDigits = 21;
    }
  }
  if (needFraction) {
    if (hasFraction) {
      let minimum = getNumberOption(options, "minimumFractionDigits", 0, 100, undefined);
      let maximum = getNumberOption(options, "maximumFractionDigits", 0, 100, undefined);
      if (minimum === undefined) minimum = Math.min(defaultMinFraction, maximum);
      else if (maximum === undefined) maximum = Math.max(defaultMaxFraction, minimum);
      else if (minimum > maximum) throw new RangeError("maximumFractionDigits value is out of range.");
      result.minimumFractionDigits = minimum;
      result.maximumFractionDigits = maximum;
    } else {
      result.minimumFractionDigits = defaultMinFraction;
      result.maximumFractionDigits = defaultMaxFraction;
    }
  }
  if (!needSignificant && !needFraction) {
    result.minimumFractionDigits = 0;
    result.maximumFractionDigits = 0;
    result.minimumSignificantDigits = 1;
    result.maximumSignificantDigits = 2;
    result.roundingType = "morePrecision";
    result.roundingPriority = "morePrecision";
  } else if (roundingPriority === "auto") {
    result.roundingType = needSignificant ? "significantDigits" : "fractionDigits";
  } else {
    result.roundingType = roundingPriority;
  }
  if (roundingIncrement !== 1) {
    if (result.roundingType !== "fractionDigits") {
      throw new TypeError("roundingIncrement is only allowed with fraction digits rounding.");
    }
    if (result.maximumFractionDigits !== result.minimumFractionDigits) {
      throw new RangeError("maximumFractionDigits and minimumFractionDigits must be equal with a rounding increment.");
    }
  }
  return result;
}

function groupingOption(options, fallback) {
  const value = options.useGrouping;
  if (value === undefined) return fallback;
  if (value === true) return "always";
  if (value === false || value === null || value === 0 || value === "") return false;
  const text = String(value);
  if (text === "true" || text === "false") return fallback;
  if (!["min2", "auto", "always"].includes(text)) {
    throw new RangeError(`Value ${text} out of range for Intl.NumberFormat options property useGrouping`);
  }
  return text;
}

/** The rounded digits of `decimal` under the format's digit options. */
function roundDecimal(options, roundingType, decimal) {
  const mode = options.roundingMode;
  const { minimumFractionDigits: minF, maximumFractionDigits: maxF } = options;
  const { minimumSignificantDigits: minS, maximumSignificantDigits: maxS } = options;
  let result;
  if (roundingType === "significantDigits") {
    result = rawPrecision(decimal, minS, maxS, mode);
  } else if (roundingType === "fractionDigits") {
    if (options.roundingIncrement !== 1) {
      result = roundToIncrement(decimal, maxF, options.roundingIncrement, mode);
      result = { ...result, ...toFixedParts(result.rounded, minF) };
    } else {
      result = rawFixed(decimal, minF, maxF, mode);
    }
  } else {
    const bySignificant = rawPrecision(decimal, minS, maxS, mode);
    const byFraction = rawFixed(decimal, minF, maxF, mode);
    const significantIsMorePrecise = bySignificant.magnitude <= byFraction.magnitude;
    if (roundingType === "morePrecision") result = significantIsMorePrecise ? bySignificant : byFraction;
    else result = significantIsMorePrecise ? byFraction : bySignificant;
  }
  if (options.trailingZeroDisplay === "stripIfInteger" && /^0*$/.test(result.fraction)) {
    result = { ...result, fraction: "" };
  }
  return result;
}

function roundToIncrement(decimal, maxFraction, increment, mode) {
  // Scale so the increment is an integer step, round the quotient, scale back.
  const scaled = { ...decimal, exponent: decimal.exponent + maxFraction };
  const units = toFixedParts(roundAtPlace(scaled, 0, "trunc"), 0).integer;
  const whole = BigInt(units);
  const step = BigInt(increment);
  const remainderDecimal = subtractInteger(scaled, whole - (whole % step));
  const base = whole - (whole % step);
  // Rounding between `base` and `base + step` by the fraction of the way.
  const half = { negative: decimal.negative, digits: String(increment * 5), exponent: String(increment * 5).length - 2 };
  const comparison = compareDecimals(remainderDecimal, half);
  const remainderIsZero = isZero(remainderDecimal);
  let up;
  switch (mode) {
    case "ceil":
      up = !remainderIsZero && !decimal.negative;
      break;
    case "floor":
      up = !remainderIsZero && decimal.negative;
      break;
    case "expand":
      up = !remainderIsZero;
      break;
    case "trunc":
      up = false;
      break;
    case "halfEven":
      up = comparison > 0 || (comparison === 0 && (base / step) % 2n === 1n);
      break;
    case "halfTrunc":
      up = comparison > 0;
      break;
    case "halfCeil":
      up = comparison > 0 || (comparison === 0 && !decimal.negative);
      break;
    case "halfFloor":
      up = comparison > 0 || (comparison === 0 && decimal.negative);
      break;
    default:
      up = comparison >= 0 && !remainderIsZero;
  }
  const value = up ? base + step : base;
  const rounded = decimalOfString(`${decimal.negative ? "-" : ""}${value}e-${maxFraction}`);
  return { rounded, magnitude: -maxFraction };
}

/** |decimal| − integer, for a non-negative integer not above |decimal|. */
function subtractInteger(decimal, integer) {
  const { integer: whole, fraction } = toFixedParts({ ...decimal, negative: false }, 0);
  const difference = BigInt(whole) - integer;
  return decimalOfString(`${difference}.${fraction}`);
}

function compareDecimals(a, b) {
  const left = toFixedParts({ ...a, negative: false }, 0);
  const right = toFixedParts({ ...b, negative: false }, 0);
  const integers = BigInt(left.integer) - BigInt(right.integer);
  if (integers !== 0n) return integers > 0n ? 1 : -1;
  const width = Math.max(left.fraction.length, right.fraction.length);
  const l = left.fraction.padEnd(width, "0");
  const r = right.fraction.padEnd(width, "0");
  return l === r ? 0 : l > r ? 1 : -1;
}

function groupInteger(integer, useGrouping) {
  if (useGrouping === false) return [integer];
  const minimum = useGrouping === "min2" ? 5 : 4;
  if (integer.length < minimum) return [integer];
  const groups = [];
  let end = integer.length;
  while (end > 3) {
    groups.unshift(integer.slice(end - 3, end));
    end -= 3;
  }
  groups.unshift(integer.slice(0, end));
  return groups;
}

function magnitudeOf(decimal) {
  return isZero(decimal) ? 0 : decimal.exponent;
}

function formatNumberToParts(options, roundingType, value) {
  let decimal;
  if (typeof value === "number" && Number.isNaN(value)) {
    decimal = { negative: false, special: "nan" };
  } else if (typeof value === "number" && !Number.isFinite(value)) {
    decimal = { negative: value < 0, special: "infinity" };
  } else {
    decimal = decimalOf(value);
  }
  if (options.style === "percent" && decimal.special === undefined && !isZero(decimal)) {
    decimal = { ...decimal, exponent: decimal.exponent + 2 };
  }
  let numberParts;
  let rounded;
  let exponentValue = 0;
  let compactSuffix = "";
  if (decimal.special === "nan") {
    numberParts = [{ type: "nan", value: "NaN" }];
  } else if (decimal.special === "infinity") {
    numberParts = [{ type: "infinity", value: "∞" }];
  } else {
    let scale = 0;
    if (options.notation === "compact") {
      scale = compactScale(magnitudeOf(decimal));
    } else if (options.notation === "scientific") {
      scale = magnitudeOf(decimal);
    } else if (options.notation === "engineering") {
      scale = Math.floor(magnitudeOf(decimal) / 3) * 3;
    }
    let scaled = { ...decimal, exponent: decimal.exponent - scale };
    let result = roundDecimal(options, roundingType, scaled);
    // Rounding may carry into the next magnitude (999.95K is 1M).
    if (options.notation !== "standard" && !isZero(result.rounded)) {
      const carried = magnitudeOf(result.rounded) + scale;
      const rescale =
        options.notation === "compact"
          ? compactScale(carried)
          : options.notation === "scientific"
            ? carried
            : Math.floor(carried / 3) * 3;
      if (rescale !== scale) {
        scale = rescale;
        scaled = { ...decimal, exponent: decimal.exponent - scale };
        result = roundDecimal(options, roundingType, scaled);
      }
    }
    rounded = result.rounded;
    exponentValue = scale;
    let integer = result.integer;
    if (integer.length < options.minimumIntegerDigits) integer = integer.padStart(options.minimumIntegerDigits, "0");
    numberParts = [];
    const groups = groupInteger(integer, options.useGrouping);
    groups.forEach((group, index) => {
      if (index > 0) numberParts.push({ type: "group", value: "," });
      numberParts.push({ type: "integer", value: group });
    });
    if (result.fraction) {
      numberParts.push({ type: "decimal", value: "." });
      numberParts.push({ type: "fraction", value: result.fraction });
    }
    if (options.notation === "compact" && scale > 0) {
      compactSuffix = COMPACT[options.compactDisplay][scale];
    } else if (options.notation === "scientific" || options.notation === "engineering") {
      numberParts.push({ type: "exponentSeparator", value: "E" });
      if (scale < 0) numberParts.push({ type: "exponentMinusSign", value: "-" });
      numberParts.push({ type: "exponentInteger", value: String(Math.abs(scale)) });
    }
  }
  const zero = rounded !== undefined && isZero(rounded);
  const sign = signOf(options.signDisplay, decimal.negative, zero, decimal.special);
  return assemble(options, numberParts, sign, compactSuffix, rounded, exponentValue);
}

function compactScale(magnitude) {
  if (magnitude < 3) return 0;
  return Math.min(Math.floor(magnitude / 3) * 3, 12);
}

/** "-", "+" or "" for a value by the sign option. */
function signOf(display, negative, zero, special) {
  switch (display) {
    case "never":
      return "";
    case "always":
      return negative ? "-" : "+";
    case "exceptZero":
      if (special === "nan" || zero) return "";
      return negative ? "-" : "+";
    case "negative":
      return negative && !zero ? "-" : "";
    default:
      return negative ? "-" : "";
  }
}

function isOne(rounded, numberParts) {
  return rounded !== undefined && numberParts.map((part) => part.value).join("") === "1";
}

function assemble(options, numberParts, sign, compactSuffix, rounded) {
  const parts = [];
  const signPart = sign === "-" ? { type: "minusSign", value: "-" } : sign === "+" ? { type: "plusSign", value: "+" } : null;
  const compact = compactSuffix ? [{ type: "compact", value: compactSuffix.trimStart() }] : [];
  const compactSpace = compactSuffix.startsWith(" ") ? [{ type: "literal", value: " " }] : [];
  const number = [...numberParts, ...compactSpace, ...compact];
  if (options.style === "currency") {
    const data = CURRENCIES[options.currency];
    const accounting = options.currencySign === "accounting" && sign === "-";
    if (options.currencyDisplay === "name") {
      const name = data ? (isOne(rounded, numberParts) ? data[3] : data[4]) : options.currency;
      if (signPart) parts.push(signPart);
      parts.push(...number, { type: "literal", value: " " }, { type: "currency", value: name });
      return parts;
    }
    const symbol =
      options.currencyDisplay === "code"
        ? options.currency
        : options.currencyDisplay === "narrowSymbol"
          ? (data?.[1] ?? options.currency)
          : (data?.[0] ?? options.currency);
    // A symbol made of letters stands apart from the number (ICU inserts a no-break space).
    const spaced = /[A-Za-z]$/.test(symbol);
    if (accounting) parts.push({ type: "literal", value: "(" });
    else if (signPart) parts.push(signPart);
    parts.push({ type: "currency", value: symbol });
    if (spaced) parts.push({ type: "literal", value: "\u00a0" });
    parts.push(...number);
    if (accounting) parts.push({ type: "literal", value: ")" });
    return parts;
  }
  if (signPart) parts.push(signPart);
  parts.push(...number);
  if (options.style === "percent") parts.push({ type: "percentSign", value: "%" });
  if (options.style === "unit") {
    const [short, narrow, singular, plural] = SIMPLE_UNITS[options.unit];
    const one = isOne(rounded, numberParts);
    let text =
      options.unitDisplay === "long" ? (one ? singular : plural) : options.unitDisplay === "narrow" ? narrow : short;
    if (options.unitDisplay === "short" && one && SHORT_UNIT_SINGULAR[options.unit]) text = SHORT_UNIT_SINGULAR[options.unit];
    if (options.unit === "percent") {
      if (options.unitDisplay === "long") parts.push({ type: "literal", value: " " }, { type: "unit", value: "percent" });
      else parts.push({ type: "percentSign", value: "%" });
    } else if (text.startsWith(" ")) {
      parts.push({ type: "literal", value: " " }, { type: "unit", value: text.slice(1) });
    } else {
      parts.push({ type: "unit", value: text });
    }
  }
  return parts;
}

// --- PluralRules -------------------------------------------------------------

// Plural rules are per language: en-US resolves to "en".
const PLURAL_LOCALES = new Set(["en"]);

class PluralRules {
  #options;

  constructor(locales, options) {
    const { locale } = resolveLocale(locales, {}, PLURAL_LOCALES);
    options = optionsObject(options);
    const type = getOption(options, "type", ["cardinal", "ordinal"], "cardinal", "Intl.PluralRules");
    const digits = digitOptions(options, 0, 3, "standard");
    this.#options = {
      locale,
      type,
      minimumIntegerDigits: digits.minimumIntegerDigits,
      ...(digits.minimumFractionDigits !== undefined
        ? { minimumFractionDigits: digits.minimumFractionDigits, maximumFractionDigits: digits.maximumFractionDigits }
        : {}),
      ...(digits.minimumSignificantDigits !== undefined
        ? {
            minimumSignificantDigits: digits.minimumSignificantDigits,
            maximumSignificantDigits: digits.maximumSignificantDigits,
          }
        : {}),
      pluralCategories: type === "ordinal" ? ["few", "one", "two", "other"] : ["one", "other"],
      roundingIncrement: digits.roundingIncrement,
      roundingMode: digits.roundingMode,
      roundingPriority: digits.roundingPriority,
      trailingZeroDisplay: digits.trailingZeroDisplay,
    };
    this.roundingType = digits.roundingType;
  }

  select(value) {
    const number = Number(value);
    if (!Number.isFinite(number)) return "other";
    const options = { ...this.#options, useGrouping: false };
    const { integer, fraction } = roundDecimal(options, this.roundingType, decimalOfNumber(Math.abs(number)));
    if (this.#options.type === "ordinal") {
      const n = Number(integer);
      const mod10 = n % 10;
      const mod100 = n % 100;
      if (fraction !== "" && /[1-9]/.test(fraction)) return "other";
      if (mod10 === 1 && mod100 !== 11) return "one";
      if (mod10 === 2 && mod100 !== 12) return "two";
      if (mod10 === 3 && mod100 !== 13) return "few";
      return "other";
    }
    return integer === "1" && fraction === "" ? "one" : "other";
  }

  resolvedOptions() {
    return { ...this.#options, pluralCategories: [...this.#options.pluralCategories] };
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  get [Symbol.toStringTag]() {
    return "Intl.PluralRules";
  }
}

// --- RelativeTimeFormat ---------------------------------------------------------

const RELATIVE_UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
// English unit names by style: [singular, plural]; narrow ones sit on the number.
const RELATIVE_NAMES = {
  long: {
    second: ["second", "seconds"], minute: ["minute", "minutes"], hour: ["hour", "hours"], day: ["day", "days"],
    week: ["week", "weeks"], month: ["month", "months"], quarter: ["quarter", "quarters"], year: ["year", "years"],
  },
  short: {
    second: ["sec.", "sec."], minute: ["min.", "min."], hour: ["hr.", "hr."], day: ["day", "days"],
    week: ["wk.", "wk."], month: ["mo.", "mo."], quarter: ["qtr.", "qtrs."], year: ["yr.", "yr."],
  },
  narrow: {
    second: ["s", "s"], minute: ["m", "m"], hour: ["h", "h"], day: ["d", "d"],
    week: ["w", "w"], month: ["mo", "mo"], quarter: ["q", "q"], year: ["y", "y"],
  },
};
// numeric: "auto" words for -1, 0 and 1 (second, minute and hour only have 0).
const RELATIVE_WORDS = {
  second: { 0: "now" },
  minute: { 0: "this minute" },
  hour: { 0: "this hour" },
  day: { "-1": "yesterday", 0: "today", 1: "tomorrow" },
};
const RELATIVE_PERIODS = { week: ["week", "wk."], month: ["month", "mo."], quarter: ["quarter", "qtr."], year: ["year", "yr."] };

class RelativeTimeFormat {
  #options;
  #number;

  constructor(locales, options) {
    const { locale } = resolveLocale(locales, { nu: ["latn"] });
    options = optionsObject(options);
    const name = "Intl.RelativeTimeFormat";
    getOption(options, "localeMatcher", ["lookup", "best fit"], "best fit", name);
    const style = getOption(options, "style", ["long", "short", "narrow"], "long", name);
    const numeric = getOption(options, "numeric", ["always", "auto"], "always", name);
    this.#options = { locale, style, numeric, numberingSystem: "latn" };
    this.#number = new NumberFormat(locale);
  }

  format(value, unit) {
    return this.formatToParts(value, unit)
      .map((part) => part.value)
      .join("");
  }

  formatToParts(value, unit) {
    const number = Number(value);
    if (!Number.isFinite(number)) throw new RangeError("Invalid time value");
    const singular = String(unit).replace(/s$/, "");
    if (!RELATIVE_UNITS.includes(singular)) {
      throw new RangeError(`Invalid unit argument for Intl.RelativeTimeFormat.prototype.format() '${String(unit)}'`);
    }
    const { style, numeric } = this.#options;
    if (numeric === "auto") {
      const word = autoWord(singular, number, style);
      if (word) return [{ type: "literal", value: word }];
    }
    const past = number < 0 || Object.is(number, -0);
    const numberParts = this.#number.formatToParts(Math.abs(number)).map((part) => ({ ...part, unit: singular }));
    const shown = numberParts.map((part) => part.value).join("");
    const [one, other] = RELATIVE_NAMES[style][singular];
    const name = shown === "1" ? one : other;
    const joined = style === "narrow" ? name : ` ${name}`;
    return past
      ? [...numberParts, { type: "literal", value: `${joined} ago` }]
      : [{ type: "literal", value: "in " }, ...numberParts, { type: "literal", value: joined }];
  }

  resolvedOptions() {
    return { ...this.#options };
  }

  get [Symbol.toStringTag]() {
    return "Intl.RelativeTimeFormat";
  }
}

function autoWord(unit, number, style) {
  if (RELATIVE_WORDS[unit]) return RELATIVE_WORDS[unit][Object.is(number, -0) ? 0 : number];
  if (number !== -1 && number !== 0 && number !== 1) return undefined;
  const period = RELATIVE_PERIODS[unit][style === "long" ? 0 : 1];
  return `${number === -1 ? "last" : number === 0 ? "this" : "next"} ${period}`;
}

// --- Segmenter -----------------------------------------------------------------

const SENTENCE_END = /[.!?\u2026\u3002\uff01\uff1f]/;

function segmentSentences(text) {
  const out = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (SENTENCE_END.test(text[i])) {
      let end = i + 1;
      while (end < text.length && SENTENCE_END.test(text[end])) end++;
      while (end < text.length && /[)"'\]\u2019\u201d]/.test(text[end])) end++;
      if (end < text.length && !/\s/.test(text[end])) {
        i = end;
        continue;
      }
      while (end < text.length && /\s/.test(text[end])) end++;
      out.push({ segment: text.slice(start, end), index: start });
      start = end;
      i = end;
      continue;
    }
    if (text[i] === "\n" || text[i] === "\u2029") {
      const end = i + 1;
      out.push({ segment: text.slice(start, end), index: start });
      start = end;
      i = end;
      continue;
    }
    i++;
  }
  if (start < text.length) out.push({ segment: text.slice(start), index: start });
  return out;
}

function segmentsOf(text, granularity) {
  if (granularity === "word") return segmentWords(text);
  if (granularity === "sentence") return segmentSentences(text);
  let index = 0;
  return graphemes(text).map((segment) => {
    const at = index;
    index += segment.length;
    return { segment, index: at };
  });
}

const segmentsPrototype = {
  containing(index) {
    const { text, list } = segmentState.get(this);
    const at = index === undefined ? 0 : Math.trunc(Number(index)) || 0;
    if (at < 0 || at >= text.length) return undefined;
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const segment = list[middle];
      if (at < segment.index) high = middle - 1;
      else if (at >= segment.index + segment.segment.length) low = middle + 1;
      else return segmentData(segment, text, segmentState.get(this).granularity);
    }
    return undefined;
  },
  [Symbol.iterator]() {
    const { text, list, granularity } = segmentState.get(this);
    let position = 0;
    const iterator = {
      next() {
        if (position >= list.length) return { value: undefined, done: true };
        return { value: segmentData(list[position++], text, granularity), done: false };
      },
      [Symbol.iterator]() {
        return this;
      },
    };
    Object.defineProperty(iterator, Symbol.toStringTag, { __proto__: null, value: "Segmenter String Iterator" });
    return iterator;
  },
};
const segmentState = new WeakMap();

function segmentData(segment, input, granularity) {
  const data = { segment: segment.segment, index: segment.index, input };
  if (granularity === "word") data.isWordLike = segment.isWordLike;
  return data;
}

class Segmenter {
  #options;

  constructor(locales, options) {
    const locale = lookupLocale(locales);
    options = optionsObject(options);
    getOption(options, "localeMatcher", ["lookup", "best fit"], "best fit", "Intl.Segmenter");
    const granularity = getOption(options, "granularity", ["grapheme", "word", "sentence"], "grapheme", "Intl.Segmenter");
    this.#options = { locale, granularity };
  }

  segment(input) {
    const text = String(input);
    const segments = Object.create(segmentsPrototype);
    segmentState.set(segments, { text, list: segmentsOf(text, this.#options.granularity), granularity: this.#options.granularity });
    return segments;
  }

  resolvedOptions() {
    return { ...this.#options };
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  get [Symbol.toStringTag]() {
    return "Intl.Segmenter";
  }
}

// --- DateTimeFormat ------------------------------------------------------------

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DATE_FIELDS = ["weekday", "era", "year", "month", "day"];
const TIME_FIELDS = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"];
const FIELD_VALUES = {
  weekday: ["narrow", "short", "long"],
  era: ["narrow", "short", "long"],
  year: ["2-digit", "numeric"],
  month: ["2-digit", "numeric", "narrow", "short", "long"],
  day: ["2-digit", "numeric"],
  dayPeriod: ["narrow", "short", "long"],
  hour: ["2-digit", "numeric"],
  minute: ["2-digit", "numeric"],
  second: ["2-digit", "numeric"],
  timeZoneName: ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"],
};
const STYLES = ["full", "long", "medium", "short"];

let localZone;
let localZoneSource;

/** The local time zone's IANA name, as Node reports it (TZ, else /etc/localtime). */
function localTimeZone() {
  const source = globalThis.process?.env?.TZ;
  if (localZone === undefined || source !== localZoneSource) {
    localZoneSource = source;
    localZone = findLocalTimeZone(source);
  }
  return localZone;
}

function findLocalTimeZone(source) {
  const fromEnvironment = source?.replace(/^:/, "");
  if (fromEnvironment) {
    const zone = canonicalZone(fromEnvironment);
    if (zone) return zone;
  }
  try {
    const target = core.loadExtScript("ext:deno_fs/30_fs.js").readLinkSync("/etc/localtime");
    const match = /zoneinfo\/(.+)$/.exec(target);
    const zone = match && canonicalZone(match[1]);
    if (zone) return zone;
  } catch {
    // No link to read: fall through.
  }
  return "UTC";
}

const UTC_NAMES = new Set(["utc", "etc/utc", "etc/gmt", "gmt", "etc/uct", "uct", "etc/universal", "universal", "etc/zulu", "zulu", "etc/gmt0", "gmt0", "etc/greenwich", "greenwich"]);

// Node 22's ICU still reports these zones by their older names.
const ICU_ZONE_NAMES = {
  "Asia/Kolkata": "Asia/Calcutta",
  "Asia/Kathmandu": "Asia/Katmandu",
  "Asia/Ho_Chi_Minh": "Asia/Saigon",
  "Asia/Yangon": "Asia/Rangoon",
  "Europe/Kyiv": "Europe/Kiev",
  "America/Nuuk": "America/Godthab",
  "Atlantic/Faroe": "Atlantic/Faeroe",
  "Pacific/Chuuk": "Pacific/Truk",
  "Pacific/Pohnpei": "Pacific/Ponape",
  "Pacific/Kanton": "Pacific/Enderbury",
  "America/Argentina/Buenos_Aires": "America/Buenos_Aires",
  "America/Argentina/Cordoba": "America/Cordoba",
  "America/Indiana/Indianapolis": "America/Indianapolis",
  "America/Kentucky/Louisville": "America/Louisville",
  "America/Atikokan": "America/Coral_Harbour",
};

/** The canonical name of a time zone, or undefined when the engine does not know it. */
function canonicalZone(name) {
  const text = String(name);
  if (UTC_NAMES.has(text.toLowerCase())) return "UTC";
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (offset) return `${offset[1]}${offset[2]}:${offset[3]}`;
  if (typeof zoneFields !== "function") return undefined;
  try {
    const zone = zoneFields(0, text).timeZone;
    return ICU_ZONE_NAMES[zone] ?? zone;
  } catch {
    return undefined;
  }
}

function toDateTimeOptions(options, required, defaults) {
  const result = Object.create(null);
  for (const key of Object.keys(options ?? {})) result[key] = options[key];
  let needDefaults = true;
  if (required === "date" || required === "any") {
    for (const field of ["weekday", "year", "month", "day"]) if (result[field] !== undefined) needDefaults = false;
  }
  if (required === "time" || required === "any") {
    for (const field of ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"]) {
      if (result[field] !== undefined) needDefaults = false;
    }
  }
  if (result.dateStyle !== undefined || result.timeStyle !== undefined) needDefaults = false;
  if (required === "date" && result.timeStyle !== undefined) {
    throw new TypeError("Invalid option : timeStyle");
  }
  if (required === "time" && result.dateStyle !== undefined) {
    throw new TypeError("Invalid option : dateStyle");
  }
  if (needDefaults && (defaults === "date" || defaults === "all")) {
    result.year = "numeric";
    result.month = "numeric";
    result.day = "numeric";
  }
  if (needDefaults && (defaults === "time" || defaults === "all")) {
    result.hour = "numeric";
    result.minute = "numeric";
    result.second = "numeric";
  }
  return result;
}

class DateTimeFormat {
  #options;
  #boundFormat;

  constructor(locales, options, required = "any", defaults = "date") {
    const resolved = resolveLocale(locales, { ca: ["gregory"], hc: ["h11", "h12", "h23", "h24"], nu: ["latn"] });
    let locale = resolved.locale;
    const raw = options === undefined ? undefined : optionsObject(options);
    const given = toDateTimeOptions(raw, required, defaults);
    const name = "Intl.DateTimeFormat";
    getOption(given, "localeMatcher", ["lookup", "best fit"], "best fit", name);
    const calendar = given.calendar;
    if (calendar !== undefined && !/^[a-z\d]{3,8}(-[a-z\d]{3,8})*$/i.test(String(calendar))) {
      throw new RangeError(`Invalid calendar : ${String(calendar)}`);
    }
    const hour12 = getBoolean(given, "hour12");
    let hourCycle = getOption(given, "hourCycle", ["h11", "h12", "h23", "h24"], undefined, name);
    if (hour12 !== undefined) hourCycle = undefined;
    // An hour option overrides the locale's -u-hc- keyword, which then leaves the locale.
    if (resolved.keywords.hc) {
      if (hour12 === undefined && hourCycle === undefined) hourCycle = resolved.keywords.hc;
      else locale = locale.replace(/-hc-h\d\d/, "").replace(/-u$/, "");
    }
    let timeZone = given.timeZone;
    if (timeZone === undefined) {
      timeZone = localTimeZone();
    } else {
      const zone = canonicalZone(timeZone);
      if (zone === undefined) throw new RangeError(`Invalid time zone specified: ${String(timeZone)}`);
      timeZone = zone;
    }
    const fields = {};
    for (const field of [...DATE_FIELDS, ...TIME_FIELDS.slice(0, 4)]) {
      fields[field] = getOption(given, field, FIELD_VALUES[field], undefined, name);
    }
    fields.fractionalSecondDigits = getNumberOption(given, "fractionalSecondDigits", 1, 3, undefined);
    fields.timeZoneName = getOption(given, "timeZoneName", FIELD_VALUES.timeZoneName, undefined, name);
    getOption(given, "formatMatcher", ["basic", "best fit"], "best fit", name);
    const dateStyle = getOption(given, "dateStyle", STYLES, undefined, name);
    const timeStyle = getOption(given, "timeStyle", STYLES, undefined, name);
    if (dateStyle !== undefined || timeStyle !== undefined) {
      for (const [field, value] of Object.entries(fields)) {
        if (value !== undefined) throw new TypeError(`Invalid option : option`);
        void field;
      }
    }
    const usesHour = fields.hour !== undefined || timeStyle !== undefined;
    let resolvedCycle;
    if (usesHour) {
      if (hour12 === true) resolvedCycle = "h12";
      else if (hour12 === false) resolvedCycle = "h23";
      else resolvedCycle = hourCycle ?? "h12";
    }
    // en-US patterns: H and K hours are always two digits, and minutes and
    // seconds beside an hour (or each other) too.
    if (fields.hour !== undefined && (resolvedCycle === "h23" || resolvedCycle === "h24")) fields.hour = "2-digit";
    if (fields.minute !== undefined && (fields.hour !== undefined || fields.second !== undefined)) fields.minute = "2-digit";
    if (fields.second !== undefined && (fields.hour !== undefined || fields.minute !== undefined)) fields.second = "2-digit";
    this.#options = {
      locale,
      calendar: "gregory",
      numberingSystem: "latn",
      timeZone,
      ...(resolvedCycle ? { hourCycle: resolvedCycle, hour12: resolvedCycle === "h11" || resolvedCycle === "h12" } : {}),
      ...Object.fromEntries(
        ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"]
          .filter((field) => fields[field] !== undefined)
          .map((field) => [field, fields[field]]),
      ),
      ...(dateStyle ? { dateStyle } : {}),
      ...(timeStyle ? { timeStyle } : {}),
    };
  }

  get format() {
    this.#boundFormat ??= (date) =>
      this.formatToParts(date)
        .map((part) => part.value)
        .join("")
        .replaceAll("\u202f", " ");
    return this.#boundFormat;
  }

  formatToParts(date) {
    const time = date === undefined ? Date.now() : Number(date instanceof Date ? date.getTime() : date);
    if (!Number.isFinite(time) || Math.abs(time) > 8.64e15) throw new RangeError("Invalid time value");
    return dateParts(this.#options, wallClock(Math.trunc(time), this.#options.timeZone));
  }

  formatRange(start, end) {
    const from = this.format(start);
    const to = this.format(end);
    return from === to ? from : `${from} – ${to}`;
  }

  resolvedOptions() {
    return { ...this.#options };
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  get [Symbol.toStringTag]() {
    return "Intl.DateTimeFormat";
  }
}

/** The wall-clock fields of `time` (ms since the epoch) in `zone`. */
function wallClock(time, zone) {
  const date = new Date(time);
  const millisecond = date.getUTCMilliseconds();
  if (zone === "UTC" || /^[+-]\d{2}:\d{2}$/.test(zone)) {
    const offsetMinutes = zone === "UTC" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
    const shifted = new Date(time + offsetMinutes * 60000);
    return utcFields(shifted, offsetMinutes, millisecond);
  }
  if (zone === localTimeZone()) {
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      weekday: date.getDay(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
      millisecond,
      offsetMinutes: -date.getTimezoneOffset(),
    };
  }
  const fields = zoneFields(time - millisecond, zone);
  const offsetMinutes = Math.round(Number(fields.offsetNanoseconds) / 6e10);
  return utcFields(new Date(time + offsetMinutes * 60000), offsetMinutes, millisecond);
}

function utcFields(shifted, offsetMinutes, millisecond) {
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    weekday: shifted.getUTCDay(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond,
    offsetMinutes,
  };
}

const pad2 = (value) => String(value).padStart(2, "0");

function weekdayText(weekday, width) {
  const name = WEEKDAYS[weekday];
  return width === "long" ? name : width === "short" ? name.slice(0, 3) : name[0];
}

function monthText(month, width) {
  const name = MONTHS[month - 1];
  if (width === "long") return name;
  if (width === "short") return name.slice(0, 3);
  if (width === "narrow") return name[0];
  return width === "2-digit" ? pad2(month) : String(month);
}

function yearText(year, width) {
  const shown = year <= 0 ? 1 - year : year;
  return width === "2-digit" ? pad2(shown % 100) : String(shown);
}

function eraText(year, width) {
  const ad = year > 0;
  if (width === "long") return ad ? "Anno Domini" : "Before Christ";
  if (width === "narrow") return ad ? "A" : "B";
  return ad ? "AD" : "BC";
}

function offsetText(minutes, long) {
  if (minutes === 0) return "GMT";
  const sign = minutes < 0 ? "-" : "+";
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  if (long) return `GMT${sign}${pad2(hours)}:${pad2(rest)}`;
  return rest === 0 ? `GMT${sign}${hours}` : `GMT${sign}${hours}:${pad2(rest)}`;
}

function zoneNameText(options, clock) {
  const width = options.timeZoneName;
  const utc = options.timeZone === "UTC";
  switch (width) {
    case "long":
    case "longGeneric":
      return utc ? "Coordinated Universal Time" : offsetText(clock.offsetMinutes, true);
    case "longOffset":
      return offsetText(clock.offsetMinutes, true);
    case "shortOffset":
      return offsetText(clock.offsetMinutes, false);
    default:
      return utc ? "UTC" : offsetText(clock.offsetMinutes, false);
  }
}

function dayPeriodText(hour, width) {
  if (width === undefined) return hour < 12 ? "AM" : "PM";
  if (hour === 12) return width === "narrow" ? "n" : "noon";
  if (hour >= 6 && hour < 12) return "in the morning";
  if (hour >= 12 && hour < 18) return "in the afternoon";
  if (hour >= 18 && hour < 21) return "in the evening";
  return "at night";
}

/** The parts for one en-US pattern; `pattern` is a list of field names and literal strings. */
function renderPattern(pattern, values) {
  const parts = [];
  for (const piece of pattern) {
    if (typeof piece === "string") {
      if (parts.length && parts.at(-1).type === "literal") parts.at(-1).value += piece;
      else parts.push({ type: "literal", value: piece });
    } else {
      parts.push({ type: piece.field, value: values[piece.field] });
    }
  }
  return parts;
}

const f = (field) => ({ field });

function datePattern(options) {
  const { weekday, era, year, month, day } = options;
  const textMonth = month === "narrow" || month === "short" || month === "long";
  const pattern = [];
  if (textMonth) {
    if (weekday) pattern.push(f("weekday"), ", ");
    if (day && year) pattern.push(f("month"), " ", f("day"), ", ", f("year"));
    else if (day) pattern.push(f("month"), " ", f("day"));
    else if (year) pattern.push(f("month"), " ", f("year"));
    else pattern.push(f("month"));
    if (era) pattern.push(" ", f("era"));
    return pattern;
  }
  if (month) {
    if (weekday) pattern.push(f("weekday"), ", ");
    if (day && year) pattern.push(f("month"), "/", f("day"), "/", f("year"));
    else if (day) pattern.push(f("month"), "/", f("day"));
    else if (year) pattern.push(f("month"), "/", f("year"));
    else pattern.push(f("month"));
    if (era) pattern.push(" ", f("era"));
    return pattern;
  }
  if (year && day) {
    pattern.push(f("year"), " (day: ", f("day"), ")");
  } else if (year) {
    pattern.push(f("year"));
    if (era) pattern.push(" ", f("era"));
  } else if (day) {
    pattern.push(f("day"));
    if (weekday) pattern.push(" ", f("weekday"));
    return pattern;
  }
  if (weekday) {
    if (pattern.length) pattern.unshift(f("weekday"), ", ");
    else pattern.push(f("weekday"));
  }
  if (era && !year) pattern.push(pattern.length ? " " : "", f("era"));
  return pattern;
}

function timePattern(options) {
  const { hour, minute, second, fractionalSecondDigits, dayPeriod, hourCycle } = options;
  const pattern = [];
  const twelve = hourCycle === "h11" || hourCycle === "h12";
  const clock = [];
  if (hour) clock.push("hour");
  if (minute) clock.push("minute");
  if (second) clock.push("second");
  clock.forEach((field, index) => {
    if (index > 0) pattern.push(":");
    pattern.push(f(field));
  });
  if (fractionalSecondDigits) pattern.push(".", f("fractionalSecond"));
  // ICU puts a narrow no-break space before AM/PM; V8's format() turns it
  // into a space, formatToParts keeps it.
  if (hour && twelve) pattern.push("\u202f", f("dayPeriod"));
  else if (!hour && dayPeriod) pattern.push(f("dayPeriod"));
  return pattern;
}

function styledPattern(options) {
  const date = {
    full: [f("weekday"), ", ", f("month"), " ", f("day"), ", ", f("year")],
    long: [f("month"), " ", f("day"), ", ", f("year")],
    medium: [f("month"), " ", f("day"), ", ", f("year")],
    short: [f("month"), "/", f("day"), "/", f("year")],
  }[options.dateStyle];
  const twelve = options.hourCycle === "h11" || options.hourCycle === "h12";
  const clock = {
    full: [f("hour"), ":", f("minute"), ":", f("second")],
    long: [f("hour"), ":", f("minute"), ":", f("second")],
    medium: [f("hour"), ":", f("minute"), ":", f("second")],
    short: [f("hour"), ":", f("minute")],
  }[options.timeStyle];
  let time;
  if (clock) {
    time = twelve ? [...clock, "\u202f", f("dayPeriod")] : clock;
    if (options.timeStyle === "full" || options.timeStyle === "long") time = [...time, " ", f("timeZoneName")];
  }
  if (date && time) {
    const joiner = options.dateStyle === "full" || options.dateStyle === "long" ? " at " : ", ";
    return [...date, joiner, ...time];
  }
  return date ?? time;
}

function dateParts(options, clock) {
  const styled = options.dateStyle !== undefined || options.timeStyle !== undefined;
  let pattern;
  let widths;
  if (styled) {
    pattern = styledPattern(options);
    const dateStyle = options.dateStyle;
    widths = {
      weekday: "long",
      month: dateStyle === "full" || dateStyle === "long" ? "long" : dateStyle === "medium" ? "short" : "numeric",
      year: dateStyle === "short" ? "2-digit" : "numeric",
      day: "numeric",
      hour: options.hourCycle === "h23" || options.hourCycle === "h24" ? "2-digit" : "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: options.timeStyle === "full" ? "long" : "short",
    };
  } else {
    const date = datePattern(options);
    const time = timePattern(options);
    pattern = date.length && time.length ? [...date, ", ", ...time] : [...date, ...time];
    if (options.timeZoneName) pattern = pattern.length ? [...pattern, " ", f("timeZoneName")] : [f("timeZoneName")];
    widths = options;
  }
  if (styled || options.timeZoneName) {
    // ", " joins a date to a zone name with no time between (1/15/2024, UTC).
    const zoneAt = pattern.findIndex((piece) => piece.field === "timeZoneName");
    const before = pattern[zoneAt - 2];
    if (zoneAt > 1 && before?.field && ["day", "year", "month", "weekday", "era"].includes(before.field)) {
      pattern[zoneAt - 1] = ", ";
    }
  }
  const values = {};
  const cycle = options.hourCycle;
  let hour = clock.hour;
  if (cycle === "h12") hour = hour % 12 === 0 ? 12 : hour % 12;
  else if (cycle === "h11") hour = hour % 12;
  else if (cycle === "h24") hour = hour === 0 ? 24 : hour;
  values.weekday = weekdayText(clock.weekday, widths.weekday);
  values.era = eraText(clock.year, widths.era ?? "short");
  values.year = yearText(clock.year, widths.year);
  values.month = monthText(clock.month, widths.month);
  values.day = widths.day === "2-digit" ? pad2(clock.day) : String(clock.day);
  values.hour = widths.hour === "2-digit" ? pad2(hour) : String(hour);
  values.minute = widths.minute === "2-digit" ? pad2(clock.minute) : String(clock.minute);
  values.second = widths.second === "2-digit" ? pad2(clock.second) : String(clock.second);
  values.fractionalSecond = String(clock.millisecond).padStart(3, "0").slice(0, options.fractionalSecondDigits ?? 3);
  values.dayPeriod = options.hour || styled ? dayPeriodText(clock.hour, options.dayPeriod) : dayPeriodText(clock.hour, options.dayPeriod ?? "short");
  values.timeZoneName = zoneNameText({ ...options, timeZoneName: widths.timeZoneName }, clock);
  return renderPattern(pattern, values);
}

// --- installation --------------------------------------------------------------

function define(target, name, value) {
  Object.defineProperty(target, name, { __proto__: null, value, writable: true, configurable: true, enumerable: false });
}

/**
 * The constructor extensions see: like Intl's own, callable with or without
 * `new`, with `supportedLocalesOf`, sharing the implementation's prototype.
 */
function publicConstructor(Implementation, name, make = (locales, options) => new Implementation(locales, options)) {
  // A plain function, so it constructs with `new` and runs without it.
  const constructor = function (locales, options) {
    return make(locales, options);
  };
  Object.defineProperty(constructor, "name", { __proto__: null, value: name });
  Object.defineProperty(constructor, "prototype", { __proto__: null, value: Implementation.prototype, writable: false });
  define(Implementation.prototype, "constructor", constructor);
  define(constructor, "supportedLocalesOf", supportedLocalesOf);
  Object.defineProperty(constructor, "length", { __proto__: null, value: 0 });
  return constructor;
}

const intl = globalThis.Intl ?? {};
if (!globalThis.Intl) define(globalThis, "Intl", intl);

if (!works(() => new engineIntl.NumberFormat("en-US").format(1234.5) === "1,234.5")) {
  define(intl, "NumberFormat", publicConstructor(NumberFormat, "NumberFormat"));
  const toLocaleString = function toLocaleString(locales, options) {
    return new NumberFormat(locales, options).format(this.valueOf());
  };
  define(Number.prototype, "toLocaleString", toLocaleString);
  define(BigInt.prototype, "toLocaleString", toLocaleString);
}

if (!works(() => new engineIntl.PluralRules("en-US").select(1) === "one")) {
  define(intl, "PluralRules", publicConstructor(PluralRules, "PluralRules"));
}

if (!works(() => new engineIntl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day") === "yesterday")) {
  define(intl, "RelativeTimeFormat", publicConstructor(RelativeTimeFormat, "RelativeTimeFormat"));
}

if (!works(() => typeof new engineIntl.Segmenter("en").segment("ab").containing === "function")) {
  define(intl, "Segmenter", publicConstructor(Segmenter, "Segmenter"));
}

if (!works(() => new engineIntl.DateTimeFormat("en-US", { timeZone: "UTC" }).format(0) === "1/1/1970")) {
  define(intl, "DateTimeFormat", publicConstructor(DateTimeFormat, "DateTimeFormat"));
  const localeString = (name, required, defaults) =>
    ({
      [name](locales, options) {
        const time = this.getTime();
        if (Number.isNaN(time)) return "Invalid Date";
        return new DateTimeFormat(locales, options, required, defaults).format(time);
      },
    })[name];
  define(Date.prototype, "toLocaleString", localeString("toLocaleString", "any", "all"));
  define(Date.prototype, "toLocaleDateString", localeString("toLocaleDateString", "date", "date"));
  define(Date.prototype, "toLocaleTimeString", localeString("toLocaleTimeString", "time", "time"));
}

if (!works(() => engineIntl.getCanonicalLocales("EN-us")[0] === "en-US")) {
  define(intl, "getCanonicalLocales", getCanonicalLocales);
}

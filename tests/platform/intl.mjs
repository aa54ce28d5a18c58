// Intl as Node 22 gives it in English (js/runtime/intl.js on the QuickJS
// backend): numbers with grouping, fractions, percent, currency, compact and
// scientific notation, their parts and resolved options; graphemes, words and
// sentences; dates and times by style and by field, in UTC, fixed and IANA
// zones; plural rules and relative times. The default locale is Node's under
// LC_ALL=en_US.UTF-8, which the test sets.
const attempt = (fn) => {
  try {
    return fn();
  } catch (error) {
    return { error: error.constructor.name, message: error.message };
  }
};

function numbers() {
  const nf = (options, locale = "en-US") => new Intl.NumberFormat(locale, options);
  const values = [0, -0, 1, -1, 0.5, 1.005, 12.345, 999.995, 1234.5, -1234.5, 120000, 1e21, 0.000123, 123456789.123];
  const formats = {
    plain: undefined,
    percent: { style: "percent" },
    percentFraction: { style: "percent", maximumFractionDigits: 2 },
    usd: { style: "currency", currency: "USD" },
    usdCode: { style: "currency", currency: "usd", currencyDisplay: "code" },
    usdName: { style: "currency", currency: "USD", currencyDisplay: "name" },
    usdAccounting: { style: "currency", currency: "USD", currencySign: "accounting" },
    eur: { style: "currency", currency: "EUR" },
    gbp: { style: "currency", currency: "GBP" },
    jpy: { style: "currency", currency: "JPY" },
    chf: { style: "currency", currency: "CHF" },
    cadNarrow: { style: "currency", currency: "CAD", currencyDisplay: "narrowSymbol" },
    compact: { notation: "compact" },
    compactLong: { notation: "compact", compactDisplay: "long" },
    compactUsd: { style: "currency", currency: "USD", notation: "compact" },
    scientific: { notation: "scientific" },
    engineering: { notation: "engineering" },
    fixed2: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
    max0: { maximumFractionDigits: 0 },
    significant3: { maximumSignificantDigits: 3 },
    significantMin: { minimumSignificantDigits: 4 },
    integers3: { minimumIntegerDigits: 3 },
    noGrouping: { useGrouping: false },
    min2: { useGrouping: "min2" },
    always: { signDisplay: "always" },
    exceptZero: { signDisplay: "exceptZero" },
    negative: { signDisplay: "negative" },
    never: { signDisplay: "never" },
    halfEven: { maximumFractionDigits: 1, roundingMode: "halfEven" },
    floor: { maximumFractionDigits: 1, roundingMode: "floor" },
    ceil: { maximumFractionDigits: 0, roundingMode: "ceil" },
    strip: { minimumFractionDigits: 2, trailingZeroDisplay: "stripIfInteger" },
    lessPrecision: { maximumFractionDigits: 1, maximumSignificantDigits: 2, roundingPriority: "lessPrecision" },
    morePrecision: { maximumFractionDigits: 1, maximumSignificantDigits: 2, roundingPriority: "morePrecision" },
    increment: { maximumFractionDigits: 2, minimumFractionDigits: 2, roundingIncrement: 5 },
    unitKb: { style: "unit", unit: "kilobyte" },
    unitSecondsLong: { style: "unit", unit: "second", unitDisplay: "long" },
    unitHourNarrow: { style: "unit", unit: "hour", unitDisplay: "narrow" },
    unitDay: { style: "unit", unit: "day" },
  };
  const table = {};
  for (const [name, options] of Object.entries(formats)) {
    table[name] = attempt(() => values.map((value) => nf(options).format(value)));
  }
  const currencies = {};
  for (const currency of ["USD", "EUR", "GBP", "JPY", "CNY", "INR", "CAD", "AUD", "CHF", "KRW", "BRL", "MXN"]) {
    currencies[currency] = ["symbol", "narrowSymbol", "code", "name"].map((currencyDisplay) =>
      [1, 2.5, -1234].map((value) => nf({ style: "currency", currency, currencyDisplay }).format(value)),
    );
  }
  const units = {};
  for (const unit of ["percent", "byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "millisecond", "second", "minute", "hour", "day"]) {
    units[unit] = ["short", "narrow", "long"].map((unitDisplay) =>
      [1, 2, 1.5, 1000].map((value) => nf({ style: "unit", unit, unitDisplay }).format(value)),
    );
  }
  return {
    table,
    currencies,
    units,
    toLocaleString: [(120000).toLocaleString(), (1234.5).toLocaleString("en-US"), (0.256).toLocaleString(undefined, { style: "percent" })],
    arrays: [[1234, 5678.9].toLocaleString(), [1e6, "x", null].toLocaleString()],
    bigint: [(12345678901234567890n).toLocaleString(), nf({ style: "currency", currency: "USD" }).format(-5n), nf({ notation: "compact" }).format(12345678n)],
    strings: [nf().format("1234567890123456789.987"), nf().format("  -0.5e3 "), nf().format("abc"), nf().format("")],
    specials: [nf().format(NaN), nf().format(Infinity), nf({ style: "percent" }).format(-Infinity), nf({ signDisplay: "always" }).format(NaN)],
    objects: [nf().format(new Number(42)), nf().format(true), nf().format(null)],
    carry: [nf({ notation: "compact" }).format(999999), nf({ notation: "compact" }).format(999.95), nf({ notation: "compact" }).format(1e15), nf({ notation: "scientific" }).format(9.9996)],
    parts: {
      currency: nf({ style: "currency", currency: "USD" }).formatToParts(-1234.5),
      compact: nf({ notation: "compact" }).formatToParts(1234),
      scientific: nf({ notation: "scientific" }).formatToParts(-0.0012),
      percent: nf({ style: "percent" }).formatToParts(0.5),
      code: nf({ style: "currency", currency: "EUR", currencyDisplay: "code" }).formatToParts(3),
      nan: nf().formatToParts(NaN),
    },
    resolved: {
      plain: nf().resolvedOptions(),
      defaultLocale: new Intl.NumberFormat().resolvedOptions(),
      currency: nf({ style: "currency", currency: "usd" }).resolvedOptions(),
      compact: nf({ notation: "compact" }).resolvedOptions(),
      significant: nf({ maximumSignificantDigits: 3 }).resolvedOptions(),
      percent: nf({ style: "percent" }).resolvedOptions(),
      unit: nf({ style: "unit", unit: "kilobyte" }).resolvedOptions(),
      english: nf(undefined, "en").resolvedOptions().locale,
      extension: nf(undefined, "en-US-u-nu-latn").resolvedOptions().locale,
    },
    boundFormat: [1, 22, 333333].map(nf().format),
    withoutNew: Intl.NumberFormat("en-US").format(1e4),
    errors: {
      badStyle: attempt(() => nf({ style: "bogus" })),
      noCurrency: attempt(() => nf({ style: "currency" })),
      badCurrency: attempt(() => nf({ style: "currency", currency: "US" })),
      fractionRange: attempt(() => nf({ minimumFractionDigits: 5, maximumFractionDigits: 2 })),
      tooManyDigits: attempt(() => nf({ maximumFractionDigits: 101 })),
      badLocale: attempt(() => nf(undefined, "en_US")),
    },
  };
}

function segments() {
  const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
  const words = new Intl.Segmenter("en", { granularity: "word" });
  const sentences = new Intl.Segmenter("en", { granularity: "sentence" });
  const list = (segmenter, text) => Array.from(segmenter.segment(text));
  const text = "e\u0301 👍🏽 🇩🇪 👨‍👩‍👧 क्षि\r\nok";
  const segmented = graphemes.segment(text);
  return {
    graphemes: list(graphemes, text).map(({ segment, index }) => [segment, index]),
    input: list(graphemes, "ab")[0].input,
    containing: [segmented.containing(0), segmented.containing(3), segmented.containing(100), segmented.containing(-1)],
    twice: [Array.from(segmented).length, Array.from(segmented).length],
    words: list(words, "Hello, world! It's 3.14 o'clock — naïve café_bar 42x.").map(({ segment, index, isWordLike }) => [segment, index, isWordLike]),
    wordContaining: words.segment("one two").containing(5),
    sentences: list(sentences, "Hello there. How are you? I'm fine!  Thanks.").map(({ segment }) => segment),
    resolved: [graphemes.resolvedOptions(), words.resolvedOptions(), new Intl.Segmenter().resolvedOptions()],
    iteratorTag: Object.prototype.toString.call(segmented[Symbol.iterator]()),
    badGranularity: attempt(() => new Intl.Segmenter("en", { granularity: "line" })),
  };
}

function dates() {
  const moment = new Date(Date.UTC(2024, 0, 15, 13, 5, 9, 123));
  const morning = new Date(Date.UTC(2023, 6, 4, 0, 7, 3, 9));
  const dtf = (options) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options });
  const fields = {
    none: {},
    dateShort: { dateStyle: "short" },
    dateMedium: { dateStyle: "medium" },
    dateLong: { dateStyle: "long" },
    dateFull: { dateStyle: "full" },
    timeShort: { timeStyle: "short" },
    timeMedium: { timeStyle: "medium" },
    timeLong: { timeStyle: "long" },
    timeFull: { timeStyle: "full" },
    bothMedium: { dateStyle: "medium", timeStyle: "short" },
    bothLong: { dateStyle: "long", timeStyle: "medium" },
    bothFull: { dateStyle: "full", timeStyle: "full" },
    styleH23: { timeStyle: "medium", hour12: false },
    monthDay: { month: "short", day: "numeric" },
    monthLongYear: { month: "long", year: "numeric" },
    numericAll: { year: "2-digit", month: "2-digit", day: "2-digit" },
    weekdayDate: { weekday: "long", year: "numeric", month: "long", day: "numeric" },
    weekdayShortNumeric: { weekday: "short", month: "numeric", day: "numeric" },
    weekdayOnly: { weekday: "long" },
    weekdayDay: { weekday: "short", day: "numeric" },
    era: { era: "short", year: "numeric", month: "short", day: "numeric" },
    yearOnly: { year: "numeric" },
    monthOnly: { month: "long" },
    dayOnly: { day: "2-digit" },
    hourOnly: { hour: "numeric" },
    hourMinute: { hour: "numeric", minute: "2-digit" },
    twoDigitTime: { hour: "2-digit", minute: "2-digit" },
    h23: { hour: "numeric", minute: "numeric", hour12: false },
    h23Cycle: { hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" },
    h11: { hour: "numeric", minute: "numeric", hourCycle: "h11" },
    minuteSecond: { minute: "numeric", second: "numeric" },
    seconds: { second: "numeric" },
    fraction: { hour: "numeric", minute: "numeric", second: "numeric", fractionalSecondDigits: 3 },
    dateTime: { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit" },
    zoneShort: { timeZoneName: "short" },
    zoneLong: { hour: "numeric", timeZoneName: "long" },
    zoneOffset: { timeZone: "Asia/Tokyo", hour: "numeric", minute: "numeric", timeZoneName: "shortOffset" },
    zoneLongOffset: { timeZone: "America/New_York", timeZoneName: "longOffset" },
    newYork: { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "medium" },
    berlin: { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false },
    fixedOffset: { timeZone: "+05:30", hour: "numeric", minute: "numeric" },
  };
  const table = {};
  for (const [name, options] of Object.entries(fields)) {
    table[name] = attempt(() => [dtf(options).format(moment), dtf(options).format(morning)]);
  }
  const resolved = {};
  for (const name of ["none", "bothFull", "hourMinute", "h23", "minuteSecond", "fraction", "zoneShort", "newYork", "fixedOffset"]) {
    resolved[name] = attempt(() => dtf(fields[name]).resolvedOptions());
  }
  return {
    table,
    resolved,
    parts: [dtf({ dateStyle: "medium", timeStyle: "short" }).formatToParts(moment), dtf({ weekday: "short", hour: "numeric", timeZoneName: "short" }).formatToParts(morning)],
    toLocale: {
      date: moment.toLocaleDateString("en-US", { timeZone: "UTC" }),
      time: moment.toLocaleTimeString("en-US", { timeZone: "UTC" }),
      both: moment.toLocaleString("en-US", { timeZone: "UTC" }),
      dateOptions: moment.toLocaleDateString("en-US", { timeZone: "UTC", month: "long", day: "numeric" }),
      timeOptions: moment.toLocaleTimeString("en-US", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" }),
      withStyle: moment.toLocaleString("en-US", { timeZone: "UTC", dateStyle: "short" }),
      invalid: new Date(NaN).toLocaleString(),
      beforeEpoch: new Date(Date.UTC(1969, 11, 31, 23, 59, 59)).toLocaleString("en-US", { timeZone: "UTC" }),
    },
    local: {
      // The process's own zone (TZ, else /etc/localtime), the same on both sides.
      zone: new Intl.DateTimeFormat().resolvedOptions().timeZone,
      date: moment.toLocaleDateString(),
      time: moment.toLocaleTimeString(),
      both: moment.toLocaleString(),
      format: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium" }).format(moment),
    },
    boundFormat: [moment, morning].map(dtf({ month: "short" }).format),
    localeKeywords: [
      new Intl.DateTimeFormat("en-US-u-hc-h23", { timeZone: "UTC", hour: "numeric" }).format(moment),
      new Intl.DateTimeFormat("en-US-u-hc-h23", { timeZone: "UTC", hour: "numeric" }).resolvedOptions().locale,
      new Intl.DateTimeFormat("en-US-u-hc-h23", { timeZone: "UTC", hour: "numeric", hour12: true }).resolvedOptions().locale,
      new Intl.DateTimeFormat("en-US-u-ca-gregory-nu-latn").resolvedOptions().locale,
    ],
    numberArgument: dtf().format(0),
    errors: {
      invalidDate: attempt(() => dtf().format(NaN)),
      badZone: attempt(() => dtf({ timeZone: "Nowhere/Else" })),
      styleAndField: attempt(() => dtf({ dateStyle: "short", month: "long" })),
      timeStyleOnDate: attempt(() => moment.toLocaleDateString("en-US", { timeStyle: "short" })),
      badOption: attempt(() => dtf({ month: "longest" })),
    },
  };
}

function plurals() {
  const cardinal = new Intl.PluralRules("en-US");
  const ordinal = new Intl.PluralRules("en-US", { type: "ordinal" });
  const values = [0, 1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1.5, -1];
  return {
    cardinal: values.map((value) => cardinal.select(value)),
    ordinal: values.map((value) => ordinal.select(value)),
    fraction: new Intl.PluralRules("en", { minimumFractionDigits: 1 }).select(1),
    resolved: [cardinal.resolvedOptions(), ordinal.resolvedOptions()],
  };
}

function relativeTimes() {
  const out = {};
  for (const style of ["long", "short", "narrow"]) {
    for (const numeric of ["always", "auto"]) {
      const rtf = new Intl.RelativeTimeFormat("en", { style, numeric });
      out[`${style}-${numeric}`] = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"].map((unit) =>
        [-2, -1, 0, 1, 2.5].map((value) => rtf.format(value, unit)),
      );
    }
  }
  return {
    table: out,
    plural: new Intl.RelativeTimeFormat("en").format(3, "days"),
    grouped: new Intl.RelativeTimeFormat("en").format(-1234.5, "hour"),
    parts: [new Intl.RelativeTimeFormat("en").formatToParts(-1234.5, "day"), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).formatToParts(1, "day")],
    resolved: new Intl.RelativeTimeFormat("en-US", { style: "short" }).resolvedOptions(),
    badUnit: attempt(() => new Intl.RelativeTimeFormat("en").format(1, "decade")),
  };
}

export async function run() {
  return {
    numbers: numbers(),
    segments: segments(),
    dates: dates(),
    plurals: plurals(),
    relativeTimes: relativeTimes(),
    locales: {
      canonical: Intl.getCanonicalLocales(["EN-us", "en-latn-us", "en"]),
      // Only English is implemented; Node's full ICU reports more, so only
      // English requests are compared.
      supported: Intl.NumberFormat.supportedLocalesOf(["en-US", "en", "en-US-u-nu-latn"]),
      badTag: attempt(() => Intl.getCanonicalLocales("en_US")),
    },
  };
}

// The string formats JSON Schema 2020-12 names, as TypeBox checks them (and
// pi-schema, whose format table is TypeBox's): a format not listed passes.

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year) {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function isDate(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [+match[1], +match[2], +match[3]];
  const limit = month === 2 && !isLeapYear(year) ? 28 : DAYS_IN_MONTH[month - 1];
  return month >= 1 && month <= 12 && day >= 1 && day <= limit;
}

// A leap second (:60) is only valid at 23:59 UTC, after applying the offset.
function isTime(value) {
  const match = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|([+-])(\d{2}):(\d{2}))$/i.exec(value);
  if (!match) return false;
  const [hour, minute, second] = [+match[1], +match[2], +match[3]];
  const sign = match[6] === "-" ? -1 : 1;
  const offsetHour = +(match[7] ?? 0);
  const offsetMinute = +(match[8] ?? 0);
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  const utcMinute = minute - offsetMinute * sign;
  const utcHour = hour - offsetHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second === 60;
}

function isDateTime(value) {
  const parts = value.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
}

function isIPv4(value) {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(value);
}

function isIPv6(value) {
  if (!/^[0-9a-f:.]+$/i.test(value)) return false;
  let groups = value.split(":");
  const last = groups[groups.length - 1];
  let words = 8;
  if (last.includes(".")) {
    if (!isIPv4(last)) return false;
    groups = groups.slice(0, -1);
    words = 6;
    if (groups[groups.length - 1] === "") groups.push("");
  }
  const compressed = value.indexOf("::");
  if (compressed !== value.lastIndexOf("::")) return false;
  const filled = groups.filter((group, index) => group !== "" || (index > 0 && index < groups.length - 1 && compressed < 0));
  if (filled.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return false;
  return compressed >= 0 ? filled.length < words : filled.length === words && groups.length === words;
}

function isHostname(value) {
  return (
    value.length <= 253 &&
    value.split(".").every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))
  );
}

function isEmail(value) {
  return /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(
    value,
  );
}

function isUri(value) {
  return /^[a-z][a-z0-9+.-]*:[^\s"<>\\^`{|}]*$/i.test(value) && !/%(?![0-9a-f]{2})/i.test(value);
}

function isUriReference(value) {
  return /^[^\s"<>\\^`{|}]*$/.test(value) && !/%(?![0-9a-f]{2})/i.test(value);
}

function isUrl(value) {
  return /^(?:https?|wss?|ftp):\/\/[^\s/?#]+[^\s]*$/i.test(value);
}

function isUuid(value) {
  return /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(value);
}

function isRegex(value) {
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

function isJsonPointer(value) {
  return /^(?:\/(?:[^~/]|~[01])*)*$/.test(value);
}

function isRelativeJsonPointer(value) {
  return /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/.test(value);
}

function isDuration(value) {
  return /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|\d+W)$/.test(value);
}

function isUriTemplate(value) {
  return /^(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2}|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i.test(
    value,
  );
}

export const formats = {
  date: isDate,
  time: isTime,
  "date-time": isDateTime,
  duration: isDuration,
  email: isEmail,
  "idn-email": isEmail,
  hostname: isHostname,
  "idn-hostname": isHostname,
  ipv4: isIPv4,
  ipv6: isIPv6,
  uri: isUri,
  "uri-reference": isUriReference,
  iri: isUri,
  "iri-reference": isUriReference,
  "uri-template": isUriTemplate,
  url: isUrl,
  uuid: isUuid,
  regex: isRegex,
  "json-pointer": isJsonPointer,
  "json-pointer-uri-fragment": (value) => value.startsWith("#") && isJsonPointer(decodeURIComponentSafe(value.slice(1))),
  "relative-json-pointer": isRelativeJsonPointer,
};

function decodeURIComponentSafe(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    return "\u0000~";
  }
}

/** Whether `value` has `format`; unknown formats pass. */
export function testFormat(format, value) {
  const test = Object.hasOwn(formats, format) ? formats[format] : undefined;
  return test === undefined || test(value);
}

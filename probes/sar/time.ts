// sar prints times with strftime's %X of the user's locale: "12:02:03" (C, de_DE, ISO),
// "12:00:01 AM" (en_US), "05時39分34秒" (ja_JP, zh_TW), "05时39分34秒" (zh_CN) or
// "05시 39분 34초" (ko_KR); the glibc locales' t_fmt of the languages sysstat translates into add
// "19.55.16" (fi_FI, sv_FI: %H.%M.%S), "19:55:16 UTC" (mt_MT: %H:%M:%S %Z), "UTC 07:55:16 PM"
// (%Z %I:%M:%S %p) and "kl. 19.55 +0000" (nb_NO, nn_NO: "kl. %H.%M %z", no seconds).
// All become 24-hour "HH:MM:SS".
// A time zone beside the time: an offset or an abbreviation (they end in "T": CET, EEST, AEDT),
// never one of sar's upper-case column names (CPU, DEV, IFACE, INTR, TTY).
const ZONE = String.raw`(?:UTC|GMT|MSK|[A-Z]{1,4}T|[+-]\d{4})`;
const TIME_RE = new RegExp(
  String.raw`^(kl\.\s|${ZONE}\s)?(\d{1,2})([:.])(\d{2})(?:\3(\d{2}))?(?:[\s.]?([AaPp])\.?\s?[Mm]\.?)?(?:\s${ZONE})?(?=\s|$)`,
);
const CJK_TIME_RE = /^(\d{1,2})\s?[時时시]\s?(\d{2})\s?[分분]\s?(\d{2})\s?[秒초](?:\s(?:UTC|GMT|[A-Z]{1,4}T))?(?=\s|$)/;

export interface TimeLabel {
  time: string;
  /** Characters of the line the label took. */
  length: number;
}

export function readTime(line: string): TimeLabel | null {
  const t = TIME_RE.exec(line);
  const cjk = t ? null : CJK_TIME_RE.exec(line);
  const m = t ? [t[0], t[2], t[4], t[5], t[6]] : cjk ? [cjk[0], cjk[1], cjk[2], cjk[3]] : null;
  if (!m) return null;
  // Only the "kl." form leaves out the seconds (sar then prints one time per minute).
  if (t && t[5] === undefined && t[1] !== "kl. ") return null;
  let hours = Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = Number(m[3] ?? 0);
  const half = m[4]?.toUpperCase();
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === "P" ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 60) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return { time: `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`, length: (m[0] ?? "").length };
}

// The banner's date is strftime's %x of the user's locale: "05/02/21" or "05/02/2021" (C, en_US:
// month first), "2021-05-02" (ISO, S_TIME_FORMAT=ISO), "02.05.2021" (de_DE), "2021年05月02日".
const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SLASH_DATE_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;
const DOT_DATE_RE = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/;
const CJK_DATE_RE = /^(\d{4})\s?[年년]\s?(\d{1,2})\s?[月월]\s?(\d{1,2})\s?[日일]$/;

/**
 * A banner date as a day number (days since 1970-01-01), so that reports of several days pasted
 * together get days that keep increasing; null when the date is not one of the forms above.
 * A slash date is month first (C locale) unless its first number cannot be a month.
 */
export function dayNumber(date: string): number | null {
  const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
  let ymd: [number, number, number] | null = null;
  const iso = ISO_DATE_RE.exec(date) ?? CJK_DATE_RE.exec(date);
  const slash = SLASH_DATE_RE.exec(date);
  const dot = DOT_DATE_RE.exec(date);
  if (iso) ymd = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (slash) {
    const [a, b] = [Number(slash[1]), Number(slash[2])];
    ymd = a > 12 ? [year(slash[3] ?? ""), b, a] : [year(slash[3] ?? ""), a, b];
  } else if (dot) ymd = [year(dot[3] ?? ""), Number(dot[2]), Number(dot[1])];
  if (!ymd) return null;
  const [y, m, d] = ymd;
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

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

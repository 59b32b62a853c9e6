// sar prints times with strftime's %X of the user's locale: "12:02:03" (C, de_DE, ISO),
// "12:00:01 AM" (en_US), "05時39分34秒" (ja_JP, zh_TW), "05时39分34秒" (zh_CN) or
// "05시 39분 34초" (ko_KR). All become 24-hour "HH:MM:SS".
const TIME_RE = /^(\d{1,2}):(\d{2}):(\d{2})(?:\s*([AaPp])\.?\s?[Mm]\.?)?(?=\s|$)/;
const CJK_TIME_RE = /^(\d{1,2})\s?[時时시]\s?(\d{2})\s?[分분]\s?(\d{2})\s?[秒초](?=\s|$)/;

export interface TimeLabel {
  time: string;
  /** Characters of the line the label took. */
  length: number;
}

export function readTime(line: string): TimeLabel | null {
  const m = TIME_RE.exec(line) ?? CJK_TIME_RE.exec(line);
  if (!m) return null;
  let hours = Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = Number(m[3]);
  const half = m[4]?.toUpperCase();
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === "P" ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 60) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return { time: `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`, length: m[0].length };
}

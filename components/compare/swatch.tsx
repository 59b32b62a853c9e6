import { seriesColor, seriesDash } from "@/components/charts/palette";
import styles from "./compare.module.css";

/** A series' line sample (colour and dash) for legends and table heads. */
export function Swatch({ index }: { index: number }) {
  return (
    <svg className={styles.swatch} width="22" height="10" aria-hidden="true">
      <line x1="1" y1="5" x2="21" y2="5" stroke={seriesColor(index)} strokeWidth="3" strokeDasharray={seriesDash(index)} />
    </svg>
  );
}

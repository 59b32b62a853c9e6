import type { SweepView } from "@/lib/sweeps/types";
import { fioCaption, flagged, fmtIops, fmtLatNs, heatColor, heatRows, measure } from "./sweep-chart-data";
import styles from "./sweeps.module.css";

/**
 * The grid as a table: job counts down, queue depths across, IOPS as the cell's colour with the
 * figure and p99 written in it. Each cell takes the keyboard focus and carries its figures as its
 * accessible name, so the heatmap reads without seeing colours. One table per swept block size.
 */
export function SweepHeatmap({ view }: { view: SweepView }) {
  const sat = view.saturation?.point ?? null;
  const bsSwept = view.grid.blockSizesKiB.length > 1;
  return (
    <figure className="panel" data-testid="sweep-heatmap" style={{ margin: "1rem 0", minWidth: 0 }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>IOPS over the grid (colour: share of the largest IOPS; each cell also gives p99)</figcaption>
      {view.grid.blockSizesKiB.map((bs) => (
        <div key={bs} className="table-wrap">
          <table className={styles.heatmap} data-testid="sweep-heatmap-table">
            {bsSwept ? <caption className="small muted" style={{ textAlign: "left" }}>{bs} KiB blocks</caption> : null}
            <thead>
              <tr>
                <th scope="col">jobs \ QD</th>
                {[...view.grid.iodepths].sort((a, b) => a - b).map((qd) => (
                  <th key={qd} scope="col">
                    {qd}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {heatRows(view, bs).map((row) => (
                <tr key={row[0]?.numjobs}>
                  <th scope="row">{row[0]?.numjobs}</th>
                  {row.map((c) => {
                    const colour = c.level === null ? null : heatColor(c.level);
                    const isSat = sat !== null && sat.iodepth === c.iodepth && sat.numjobs === c.numjobs && sat.blockSizeKiB === bs;
                    const iops = c.point ? measure(c.point, "iops") : null;
                    return (
                      <td
                        key={c.iodepth}
                        tabIndex={0}
                        aria-label={`${c.text}${isSat ? " (saturation point)" : ""}`}
                        title={c.text}
                        data-testid="sweep-heat-cell"
                        data-status={c.point?.status ?? "none"}
                        className={[isSat ? styles.saturation : "", c.point && flagged(c.point) ? styles.flagged : ""].filter(Boolean).join(" ") || undefined}
                        style={colour ? { background: colour.bg, color: colour.fg } : undefined}
                      >
                        {iops !== null ? (
                          <>
                            <span className={styles.cellValue}>{fmtIops(iops)}</span>
                            <span className={styles.cellSub}>p99 {fmtLatNs(c.point?.latP99Ns ?? null)}</span>
                            {c.point && flagged(c.point) ? <span className={styles.cellSub}>not counted</span> : null}
                          </>
                        ) : (
                          <span className={styles.cellSub}>{c.point?.status ?? "–"}</span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      <p className={`muted small ${styles.caption}`} data-testid="fio-version-caption">
        {fioCaption(view)}
        {sat ? " · the outlined cell is the saturation point" : ""}
      </p>
    </figure>
  );
}

import type { DiffersModel, SeriesInfo } from "@/lib/compare/types";
import styles from "./compare.module.css";
import { TableScroll } from "@/components/table-scroll";
import { Swatch } from "./swatch";

/** The profile fields that differ between the compared series; "identical" when none do. */
export function DiffersPanel({ differs, series }: { differs: DiffersModel; series: SeriesInfo[] }) {
  const cell = (v: string | null) => v ?? <span className="muted">—</span>;
  const head = (s: SeriesInfo) => (
    <span className={styles.seriesHead}>
      <Swatch index={s.index} />
      {s.label}
    </span>
  );
  // Few series: one column per series. Many: one row per series, so the table stays narrow.
  const wide = series.length <= 4;
  return (
    <section className="panel" aria-labelledby="differs-h" data-testid="what-differs">
      <h2 id="differs-h" style={{ marginTop: 0 }}>
        What differs
      </h2>
      {series.length < 2 ? (
        <p className="muted">One series: nothing to set it against. Add runs on the Runs page to compare.</p>
      ) : differs.fields.length === 0 ? (
        <p data-testid="differs-identical">
          The profiles are <strong>identical</strong> in every recorded field (
          {differs.compared.filter((c) => !c.startsWith("vm.")).join(", ").toLowerCase()}, vm sysctls).
        </p>
      ) : (
        <>
          <p className="muted small">
            Only fields whose recorded values differ. “—” is not recorded for that run and does not count as a difference.
          </p>
          <TableScroll label="What differs" testId="differs-scroll">
            {wide ? (
              <table className={`data ${styles.differs}`}>
                <thead>
                  <tr>
                    <th scope="col">field</th>
                    {series.map((s) => (
                      <th key={s.key} scope="col">
                        {head(s)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {differs.fields.map((f) => (
                    <tr key={f.id}>
                      <th scope="row">{f.label}</th>
                      {series.map((s) => (
                        <td key={s.key} data-field={f.id}>
                          {cell(f.values[s.key] ?? null)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <table className={`data ${styles.differs}`}>
                <thead>
                  <tr>
                    <th scope="col">series</th>
                    {differs.fields.map((f) => (
                      <th key={f.id} scope="col" data-field={f.id}>
                        {f.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {series.map((s) => (
                    <tr key={s.key}>
                      <th scope="row">{head(s)}</th>
                      {differs.fields.map((f) => (
                        <td key={f.id} data-field={f.id}>
                          {cell(f.values[s.key] ?? null)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </TableScroll>
        </>
      )}
      {differs.withoutProfile.length > 0 ? (
        <p className="muted small">No host profile for: {differs.withoutProfile.join("; ")} (imported output carries none).</p>
      ) : null}
    </section>
  );
}

import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { metricValue, parseMetrics } from "./prometheus";

describe("the test reader of the Prometheus text format", () => {
  it("reads counters and labelled histograms as prom-client writes them", async () => {
    const r = new Registry();
    const c = new Counter({ name: "t_total", help: "a \\ help\nline", labelNames: ["k"], registers: [r] });
    const h = new Histogram({ name: "t_seconds", help: "h", labelNames: ["tool"], buckets: [0.1, 1], registers: [r] });
    c.inc({ k: 'quote " and \\ slash' }, 3);
    h.observe({ tool: "dd" }, 0.5);
    h.observe({ tool: "dd" }, 5);
    h.observe({ tool: "fio" }, 0.05);
    const scrape = parseMetrics(await r.metrics());
    expect(scrape.families.get("t_total")?.type).toBe("COUNTER");
    expect(metricValue(scrape, "t_total", { k: 'quote " and \\ slash' })).toBe(3);
    expect(metricValue(scrape, "t_seconds", { tool: "dd" })).toBe(2);
    expect(metricValue(scrape, "t_seconds")).toBe(3);
    expect(metricValue(scrape, "t_seconds", { tool: "iozone" })).toBe(0);
  });

  it("refuses text that is not the format", () => {
    for (const bad of ["foo{bar} 1\n", "foo notanumber\n", 'foo{a="b} 1\n', "foo 1", "# TYPE foo nonsense\nfoo 1\n", '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 1\n']) {
      expect(() => parseMetrics(bad), bad).toThrow();
    }
  });
});

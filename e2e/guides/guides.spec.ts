import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { expect, test } from "../fixtures";
import { readDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { createUser, e2eDataDir, signInAs, signInViaForm } from "../helpers";

/** A Prisma client on the e2e server's database (the server records its URL in the e2e data dir). */
function e2eDb(): PrismaClient {
  const url = readDatabaseUrlFile(e2eDataDir);
  if (!url) throw new Error(`no database URL in ${e2eDataDir}; is the e2e server running?`);
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

test("read a guide with charts, find another by searching, and reproduce its measurement", async ({ page }) => {
  // The launch form is for signed-in operators; signing in first keeps the final URL stable
  // once /runs/new exists (anonymous visitors would be sent to the sign-in page instead).
  const { email, password } = await createUser("operator");
  await signInViaForm(page, email, password);
  await expect(page.getByTestId("signed-in-as")).toContainText(email);

  await page.goto("/guides");
  await expect(page.getByRole("heading", { level: 1, name: "Guides" })).toBeVisible();
  await page.getByRole("link", { name: /ext2 vs ext3 vs ext4 under IOzone/ }).click();
  await expect(page).toHaveURL(/\/guides\/ext2-ext3-ext4-iozone$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("ext2 vs ext3 vs ext4");

  const chart = page.getByTestId("dataset-chart").first();
  await expect(chart).toBeVisible();
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
  // One line per file system in the IOzone write chart.
  await expect(chart.locator(".recharts-line")).toHaveCount(3);
  await expect(chart.getByRole("img").first()).toHaveAttribute("aria-label", /Line chart: .*write/);

  await page.goBack();
  await expect(page).toHaveURL(/\/guides$/);
  const search = page.getByRole("searchbox", { name: "Search the guides" });
  await search.pressSequentially("zone_reclaim");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(page.getByRole("status")).toContainText("match “zone_reclaim”");
  const first = results.getByRole("link").first();
  await expect(first).toHaveText(/Zone reclaim, NUMA and THP/);
  await first.click();
  await expect(page).toHaveURL(/\/guides\/linux-memory-numa-databases$/);

  await page.getByRole("link", { name: "Watch direct scans with sar -B" }).click();
  await expect(page).toHaveURL(/\/runs\/new\?probe=sar&preset=paging$/);
  // The launch form opens with the guide's preset and its parameters filled in.
  const form = page.getByTestId("launch-form");
  await expect(form.getByLabel("Preset")).toHaveValue("sar:paging");
  await expect(form.getByLabel(/^Parameters/)).toHaveValue(/"sections":\s*\[\s*"B"\s*\]/);
});

test("the ext guide's pivot table of 91 IOzone cells fits its text column in a 1366 px window", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/guides/ext2-ext3-ext4-iozone");
  const pivot = page.locator("table[class*='pivot']").first();
  await expect(pivot).toBeVisible();
  const fit = await pivot.evaluate((t) => {
    const wrap = t.closest(".table-wrap")!;
    return { table: t.getBoundingClientRect().width, column: wrap.getBoundingClientRect().width, scrolls: wrap.scrollWidth > wrap.clientWidth };
  });
  expect(fit.table, JSON.stringify(fit)).toBeLessThanOrEqual(fit.column);
  expect(fit.scrolls).toBe(false);
});

test("search shows an empty state when nothing matches", async ({ page }) => {
  await page.goto("/guides");
  await page.getByRole("searchbox", { name: "Search the guides" }).fill("kubernetes");
  await expect(page.getByText("No guide mentions “kubernetes”")).toBeVisible();
  await expect(page.getByRole("list", { name: "Search results" })).toHaveCount(0);
});

test("guides and their data are public; an unknown guide is a 404", async ({ page, request }) => {
  const guide = await page.goto("/guides/linux-memory-numa-databases");
  expect(guide?.status()).toBe(200);
  await expect(page.getByRole("complementary", { name: "Tunables" }).getByRole("link", { name: "vm.zone_reclaim_mode" })).toBeVisible();

  const missing = await page.goto("/guides/no-such-guide");
  expect(missing?.status()).toBe(404);

  const csv = await request.get("/guides/data/ext-iozone-2009.csv");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")[0]).toBe("fs,operation,record_kb,value");
  const json = await request.get("/guides/data/ext-iozone-2009.json");
  expect(json.headers()["content-type"]).toContain("application/json");
  expect((await json.json()).id).toBe("ext-iozone-2009");
});

test("tunables lists every guide's settings with the recommended value publicly, and host values only to signed-in users", async ({ page }) => {
  const prisma = e2eDb();
  try {
    const hostCount = await prisma.host.count();
    await page.goto("/tunables");
    await expect(page.getByRole("heading", { level: 1, name: "Tunables" })).toBeVisible();
    const row = page.locator("tr#vm-zone-reclaim-mode");
    await expect(row.getByRole("rowheader")).toContainText("vm.zone_reclaim_mode");
    await expect(row.getByRole("rowheader")).toContainText("sysctl");
    // The first data cell is the recommendation.
    await expect(row.getByRole("cell").first()).toHaveText(/^0 /);
    await expect(row.getByRole("link", { name: /Zone reclaim, NUMA and THP/ })).toBeVisible();
    // Host values are for signed-in users: an anonymous visitor is asked to sign in, whatever hosts exist.
    const prompt = page.getByTestId("no-hosts");
    await expect(prompt).toContainText("Sign in to see your hosts' current values");
    await expect(prompt.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in?next=%2Ftunables");
    if (hostCount === 0) {
      await signInAs(page, "viewer");
      await page.goto("/tunables");
      const empty = page.getByTestId("no-hosts");
      await expect(empty).toContainText("Register a host to see its current values");
      await expect(empty.getByRole("link", { name: "Register a host" })).toHaveAttribute("href", "/hosts");
    }
  } finally {
    await prisma.$disconnect();
  }
});

test("tunables compares each host's profile with the recommendations", async ({ page }) => {
  const prisma = e2eDb();
  const name = `tunables-e2e-${randomUUID().slice(0, 8)}`;
  const host = await prisma.host.create({
    data: {
      name,
      profile: {
        sysctls: { "vm.zone_reclaim_mode": "1", "vm.dirty_ratio": "20" },
        thp: { enabled: "always madvise [never]" },
        targets: [{ path: "/data", fsType: "ext4", mountOptions: ["rw", "noatime"], medium: "ssd" }],
        numa: { nodes: 2 },
      },
    },
  });
  try {
    // Host columns are for signed-in users (any role may read every host).
    await signInAs(page, "viewer");
    await page.goto(`/tunables?hosts=${host.id}`);
    const headers = await page.locator("table thead th").allTextContents();
    const column = headers.indexOf(`Host ${name}`);
    expect(column).toBeGreaterThan(0);
    // Row cells line up with the header: the name is a th, the rest tds.
    const hostCell = (anchor: string) => page.locator(`tr#${anchor} > :is(th, td)`).nth(column);

    await expect(hostCell("vm-zone-reclaim-mode")).toContainText("1");
    await expect(hostCell("vm-zone-reclaim-mode")).toContainText("≠ recommended");
    await expect(hostCell("vm-dirty-ratio")).toContainText("20");
    await expect(hostCell("vm-dirty-ratio")).toContainText("✓ as recommended");
    await expect(hostCell("sys-kernel-mm-transparent-hugepage-enabled")).toContainText("never");
    await expect(hostCell("noatime")).toContainText("yes on /data");
    await expect(hostCell("sar-b")).toHaveText("—");
    await expect(page.getByText(`${name}: 1 value differs from the guides (vm.zone_reclaim_mode)`)).toBeVisible();
  } finally {
    await prisma.host.delete({ where: { id: host.id } });
    await prisma.$disconnect();
  }
});

test("the storage guide's Reproduce button opens the QD1 synchronous preset, sized for what 60 s of O_DIRECT can reach", async ({ page }) => {
  const prisma = e2eDb();
  const name = `qd1-e2e-${randomUUID().slice(0, 8)}`;
  const GiB = 2 ** 30;
  const host = await prisma.host.create({
    data: {
      name,
      profile: {
        memory: { totalBytes: 8 * GiB },
        targets: [{ path: "/data", fsType: "ext4", medium: "disk", freeBytes: 100 * GiB }],
      },
    },
  });
  try {
    const { email, password } = await createUser("operator");
    await signInViaForm(page, email, password);
    // Wait for the session cookie before leaving the page, or /runs/new may still see no session.
    await expect(page.getByTestId("signed-in-as")).toContainText(email);
    await page.goto("/guides/storage-media-disk-flash-memory");
    await page.getByRole("link", { name: "Random 4 KB reads, one synchronous thread (fio, QD1)" }).click();
    await expect(page).toHaveURL(/\/runs\/new\?probe=fio&preset=rand-read-4k$/);
    const form = page.getByTestId("launch-form");
    await expect(form.getByLabel("Preset")).toHaveValue("fio:rand-read-4k");
    const params = form.getByLabel(/^Parameters/);
    await expect(params).toHaveValue(/"ioengine": "psync"/);
    await expect(params).toHaveValue(/"iodepth": 1,/);
    await expect(params).toHaveValue(/"numjobs": 1,/);
    await expect(params).toHaveValue(/"rw": "randread"/);
    await expect(params).toHaveValue(/"direct": true/);
    // O_DIRECT bypasses the page cache, so the host's 8 GiB of RAM is not the yardstick: the file
    // spans what 60 s at QD1 can reach at most (50,000 IOPS × 4 KiB: 11.4 GiB), in whole GiB.
    await form.getByRole("combobox", { name: "Host", exact: true }).selectOption({ label: name });
    await expect(params).toHaveValue(/"sizeMiB": 11264,/);
    await expect(form.getByTestId("size-beyond-ram")).toContainText("11 GiB");
    await expect(form.getByTestId("size-beyond-ram")).toContainText("O_DIRECT bypasses the page cache");
    // The queue-depth-32 variant keeps its own name.
    await form.getByLabel("Preset").selectOption("fio:rand-read-4k-qd32");
    await expect(params).toHaveValue(/"iodepth": 32,/);
    await expect(params).toHaveValue(/"ioengine": "libaio"/);
  } finally {
    await prisma.host.delete({ where: { id: host.id } });
    await prisma.$disconnect();
  }
});

test("the IOzone chart's operation picker switches between all 13 operations", async ({ page }) => {
  await page.goto("/guides/ext2-ext3-ext4-iozone");
  const chart = page.getByTestId("dataset-chart").first();
  const picker = chart.getByRole("combobox", { name: "Operation (IOzone metric)" });
  await expect(picker.locator("option")).toHaveCount(13);
  await expect(picker).toHaveValue("write");
  const plot = chart.getByRole("img").first();
  await expect(plot).toHaveAttribute("aria-label", /Operation \(IOzone metric\): write;/);
  await picker.selectOption("random_read");
  await expect(plot).toHaveAttribute("aria-label", /Operation \(IOzone metric\): random_read;.*marked: ext4 outlier/);
  await expect(chart.locator(".recharts-line")).toHaveCount(3);
  // The 273 cells are an operation × record size grid (one line per file system), not 273 rows.
  const grid = page.getByRole("table", { name: /operation \(iozone metric\) × record size \(kb\)/i });
  await expect(grid.locator("thead th")).toHaveCount(2 + 7);
  await expect(grid.locator("tbody tr")).toHaveCount(13 * 3);
  await expect(grid.locator("tbody tr").filter({ hasText: "ext4" }).nth(2)).toContainText("240,426");
});

test("the tunables table fits a 1280 px window without sideways scrolling", async ({ page }) => {
  // Two host columns, with long values, beside the five text columns.
  const prisma = e2eDb();
  const hosts = await Promise.all(
    [1, 2].map((i) =>
      prisma.host.create({
        data: {
          name: `width-e2e-${i}-${randomUUID().slice(0, 8)}`,
          profile: {
            sysctls: { "vm.zone_reclaim_mode": "1", "vm.dirty_ratio": "20" },
            thp: { enabled: "always madvise [never]", defrag: "always defer defer+madvise [madvise] never" },
            targets: [{ path: "/srv/a/rather/long/mount/point/for/the/database/files", fsType: "ext4", mountOptions: ["rw", "noatime", "errors=remount-ro", "data=ordered"], medium: "ssd" }],
          },
        },
      }),
    ),
  );
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, "viewer");
    await page.goto(`/tunables?hosts=${hosts.map((h) => h.id).join(",")}`);
    const wrap = page.locator(".table-wrap").filter({ has: page.locator("table") }).first();
    await expect(wrap).toBeVisible();
    const { scroll, client, doc } = await wrap.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      doc: document.documentElement.scrollWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    expect(doc).toBeLessThanOrEqual(1280);
  } finally {
    await prisma.host.deleteMany({ where: { id: { in: hosts.map((h) => h.id) } } });
    await prisma.$disconnect();
  }
});

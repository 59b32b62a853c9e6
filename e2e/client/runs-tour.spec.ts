import { expect, test } from "../fixtures";
import { apiTokenFor, registerFakeAgent } from "../helpers";
import { runsTour } from "./runs-tour";

test("a client typed from the OpenAPI document lists, launches, reads, exports and cancels runs", async ({ request, baseURL }) => {
  const token = await apiTokenFor("operator");
  const host = await registerFakeAgent(request, token, "typed-client");
  const tour = await runsTour({ baseUrl: baseURL!, token, hostId: host.id, target: "/srv/pb" });
  expect(tour).toMatchObject({ listed: 0, status: "QUEUED", findings: 0, cancelled: "CANCELLED" });
  expect(tour.csvHeader).toMatch(/^run,/);
  expect(tour.label).toContain("typed-client");
});

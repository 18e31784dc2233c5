import { equal } from "node:assert/strict";
import { NEAR_BOTTOM_PX, nearBottom } from "./scroll.ts";

Deno.test("nearBottom() follows within the threshold and not beyond it", () => {
  const box = (scrollTop: number) => ({ scrollHeight: 2000, clientHeight: 500, scrollTop });
  equal(nearBottom(box(1500)), true, "exactly at the bottom");
  equal(nearBottom(box(1500 - NEAR_BOTTOM_PX)), true, "just inside the threshold");
  equal(nearBottom(box(1500 - NEAR_BOTTOM_PX - 1)), false, "scrolled up past it");
  equal(nearBottom({ scrollHeight: 300, clientHeight: 500, scrollTop: 0 }), true, "no overflow");
});

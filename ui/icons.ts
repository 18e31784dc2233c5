/**
 * Inline SVG icons (stroke paths in the style of Lucide, ISC), so no icon depends on an emoji
 * font: every glyph renders the same on every machine. Decorative by default (`aria-hidden`).
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "./_el.ts";

const PATHS = {
  bell: ["M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9", "M10.3 21a1.94 1.94 0 0 0 3.4 0"],
  repeat: [
    "m17 2 4 4-4 4",
    "M3 11v-1a4 4 0 0 1 4-4h14",
    "m7 22-4-4 4-4",
    "M21 13v1a4 4 0 0 1-4 4H3",
  ],
  fork: [
    "M12 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6",
    "M6 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6",
    "M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6",
    "M18 9v2c0 .6-.4 1-1 1H7c-.6 0-1-.4-1-1V9",
    "M12 12v3",
  ],
  retry: ["M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8", "M3 3v5h5"],
  edit: ["M17 3a2.85 2.83 0 1 1 4 4L7.5 20.5 2 22l1.5-5.5Z"],
  stop: ["M7 6h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1Z"],
  menu: ["M4 6h16", "M4 12h16", "M4 18h16"],
  close: ["M18 6 6 18", "m6 6 12 12"],
  clock: ["M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20", "M12 6v6l4 2"],
  tool: [
    "M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z",
  ],
  check: ["M20 6 9 17l-5-5"],
  alert: ["M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20", "M12 8v4", "M12 16h.01"],
  down: ["M12 5v14", "m19 12-7 7-7-7"],
  plus: ["M5 12h14", "M12 5v14"],
  snooze: ["M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z"],
  queued: [
    "M5 22h14",
    "M5 2h14",
    "M17 22v-4.172a2 2 0 0 0-.586-1.414L12 12l-4.414 4.414A2 2 0 0 0 7 17.828V22",
    "M7 2v4.172a2 2 0 0 0 .586 1.414L12 12l4.414-4.414A2 2 0 0 0 17 6.172V2",
  ],
  steer: ["m15 10 5 5-5 5", "M4 4v7a4 4 0 0 0 4 4h12"],
  list: ["M3 12h.01", "M3 18h.01", "M3 6h.01", "M8 12h13", "M8 18h13", "M8 6h13"],
  skip: ["M5 4l10 8-10 8z", "M19 5v14"],
  pause: ["M8 5v14", "M16 5v14"],
  play: ["M7 4l13 8-13 8z"],
  calendar: [
    "M8 2v4",
    "M16 2v4",
    "M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z",
    "M3 10h18",
  ],
  arrow: ["M5 12h14", "m12 5 7 7-7 7"],
  send: ["m22 2-7 20-4-9-9-4Z", "M22 2 11 13"],
  trash: ["M3 6h18", "M8 6V4h8v2", "M19 6l-1 14H6L5 6", "M10 11v6", "M14 11v6"],
} as const;

/** The name of an icon. */
export type IconName = keyof typeof PATHS;

/**
 * An inline SVG icon, `1em` square in the current text colour.
 *
 * @param name which icon
 * @param label an accessible name; without it the icon is hidden from assistive technology
 * @returns the `<svg>` vnode
 * @example A decorative bell
 * ```ts
 * import { icon } from "./icons.ts";
 * console.assert(icon("bell").type === "svg");
 * ```
 */
export function icon(name: IconName, label?: string): VNode {
  return el(
    "svg",
    {
      class: `icon icon-${name}`,
      viewBox: "0 0 24 24",
      width: 16,
      height: 16,
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      focusable: "false",
      ...(label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" }),
    },
    ...PATHS[name].map((d) => el("path", { d })),
  );
}

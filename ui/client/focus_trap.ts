/**
 * A focus trap for the phone drawer (README.md#the-page, WAI-ARIA APG "Dialog (Modal)"): while
 * open, focus moves into the container and Tab / Shift+Tab cycle inside it, so nothing behind
 * the backdrop takes focus; on close, focus goes back to the control that opened it.
 *
 * @module
 */
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/**
 * The focusable elements of a container that are rendered (not `display: none`), in tab order.
 *
 * @param root the container
 * @returns the elements
 */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) =>
    el.getClientRects().length > 0
  );
}

/**
 * Traps focus in `container` while `open`, and returns it to `returnTo()` when `open` turns
 * false (only if focus was inside, so a click elsewhere keeps its own focus).
 *
 * @param open whether the drawer is open
 * @param container the drawer
 * @param returnTo the toggle that opened it
 */
export function useFocusTrap(
  open: boolean,
  container: RefObject<HTMLElement>,
  returnTo: () => HTMLElement | null,
): void {
  useEffect(() => {
    const root = container.current;
    if (!open || !root) return;
    // The drawer may still be becoming visible (its class and transition apply after this
    // render): focus once now and again on the next frames until focus is inside, for ~1 s.
    let frames = 0;
    let frame = 0;
    const enter = () => {
      if (root.contains(document.activeElement)) return;
      (focusables(root)[0] ?? root).focus();
      if (!root.contains(document.activeElement) && frames++ < 60) {
        frame = requestAnimationFrame(enter);
      }
    };
    enter();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const all = focusables(root);
      if (all.length === 0) return;
      const head = all[0]!;
      const tail = all.at(-1)!;
      const active = document.activeElement;
      if (e.shiftKey && (active === head || !root.contains(active))) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (active === tail || !root.contains(active))) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("keydown", onKey);
      const active = document.activeElement;
      if (active === null || active === document.body || root.contains(active)) {
        returnTo()?.focus();
      }
    };
  }, [open]);
}

/**
 * The embedded UI island served at `/`, `/app.js` and `/style.css`.
 *
 * @module
 */
import type { StaticAsset } from "./app.ts";

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>chime</title></head><body><p>chime: the UI bundle is not built.</p></body></html>`;

/**
 * The static files of the page, by URL path.
 *
 * @returns `/`, `/app.js` and `/style.css` with their content types
 */
export function defaultAssets(): Record<string, StaticAsset> {
  return {
    "/": { body: PLACEHOLDER, contentType: "text/html; charset=utf-8" },
    "/app.js": { body: "", contentType: "text/javascript; charset=utf-8" },
    "/style.css": { body: "", contentType: "text/css; charset=utf-8" },
  };
}

import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One page of a PDF as pixels: RGB, row by row (poppler's PPM output). */
export interface RasterPage {
  width: number;
  height: number;
  rgb: Buffer;
}

/** Reads a binary PPM (P6, maxval 255): the format pdftoppm writes by default. */
function readPpm(file: Buffer): RasterPage {
  // The header is four whitespace-separated tokens: P6, width, height, maxval, then one whitespace byte.
  let offset = 0;
  const tokens: string[] = [];
  while (tokens.length < 4) {
    while (/\s/.test(String.fromCharCode(file[offset]!))) offset++;
    let token = "";
    while (!/\s/.test(String.fromCharCode(file[offset]!))) token += String.fromCharCode(file[offset++]!);
    tokens.push(token);
  }
  if (tokens[0] !== "P6" || tokens[3] !== "255") throw new Error(`not an 8-bit PPM: ${tokens.join(" ")}`);
  const [width, height] = [Number(tokens[1]), Number(tokens[2])];
  return { width, height, rgb: file.subarray(offset + 1, offset + 1 + width * height * 3) };
}

/** Renders every page of `pdf` at `dpi` with poppler's pdftoppm (apt-get install poppler-utils). */
export async function rasterizePdf(pdf: Buffer, dir: string, name: string, dpi = 96): Promise<RasterPage[]> {
  const input = path.join(dir, `${name}.pdf`);
  await writeFile(input, pdf);
  await run("pdftoppm", ["-r", String(dpi), input, path.join(dir, name)]);
  const files = (await readdir(dir)).filter((f) => f.startsWith(`${name}-`) && f.endsWith(".ppm")).sort();
  return Promise.all(files.map(async (f) => readPpm(await readFile(path.join(dir, f)))));
}

/** The PDF's text as pdftotext lays it out (-layout keeps a table's row on one line). */
export async function pdfText(pdf: Buffer, dir: string, name: string): Promise<string> {
  const input = path.join(dir, `${name}-text.pdf`);
  await writeFile(input, pdf);
  const { stdout } = await run("pdftotext", ["-layout", input, "-"]);
  return stdout;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Rectangles drawn in one colour (within `tolerance` per channel): a chart's frame on the
 * printed page. Found as horizontal runs of at least `minWidth` pixels, a top and a bottom
 * run over the same columns making one box.
 */
export function findFrames(page: RasterPage, color: [number, number, number], minWidth: number, tolerance = 10): Box[] {
  const { width, height, rgb } = page;
  const near = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return (
      Math.abs(rgb[i]! - color[0]) <= tolerance &&
      Math.abs(rgb[i + 1]! - color[1]) <= tolerance &&
      Math.abs(rgb[i + 2]! - color[2]) <= tolerance
    );
  };
  const runs: { y: number; left: number; right: number }[] = [];
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const hit = x < width && near(x, y);
      if (hit && start < 0) start = x;
      if (!hit && start >= 0) {
        if (x - start >= minWidth) runs.push({ y, left: start, right: x - 1 });
        start = -1;
      }
    }
  }
  // A line 2 px thick is two runs on adjacent rows: keep the first of each.
  const lines = runs.filter(
    (r, i) =>
      !runs
        .slice(0, i)
        .some((p) => r.y - p.y <= 3 && r.y > p.y && Math.abs(p.left - r.left) <= 2 && Math.abs(p.right - r.right) <= 2),
  );
  const boxes: Box[] = [];
  const used = new Set<number>();
  lines.forEach((top, i) => {
    if (used.has(i)) return;
    const j = lines.findIndex(
      (b, k) =>
        k > i &&
        !used.has(k) &&
        b.y - top.y > 20 &&
        Math.abs(b.left - top.left) <= 2 &&
        Math.abs(b.right - top.right) <= 2,
    );
    if (j < 0) return;
    used.add(i).add(j);
    boxes.push({ left: top.left, top: top.y, right: top.right, bottom: lines[j]!.y });
  });
  return boxes;
}

/** Pixels darker than paper (any channel below `threshold`) in a box. */
export function inkIn(page: RasterPage, box: Box, threshold = 200): number {
  let ink = 0;
  for (let y = Math.max(0, box.top); y <= Math.min(page.height - 1, box.bottom); y++) {
    for (let x = Math.max(0, box.left); x <= Math.min(page.width - 1, box.right); x++) {
      const i = (y * page.width + x) * 3;
      if (page.rgb[i]! < threshold || page.rgb[i + 1]! < threshold || page.rgb[i + 2]! < threshold) ink++;
    }
  }
  return ink;
}

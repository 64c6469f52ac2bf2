import type { ECharts } from "echarts/core";
import { useEffect, useRef } from "preact/hooks";
import type * as EChartsModule from "./echarts.js";
import type { ChartOption } from "./echarts.js";

// ECharts is loaded on first use, in its own chunk: the sign-in page does not wait for it.
let library: Promise<typeof EChartsModule> | null = null;
const loadLibrary = () => (library ??= import("./echarts.js"));

/**
 * A chart's element, holding its ECharts instance: the browser tests reach the chart
 * through it (`convertToPixel`) to point at a mark by its data, not at a guessed pixel.
 */
export type ChartElement = HTMLDivElement & { chart?: ECharts };

/**
 * Draws `option` into the returned element's ref, and keeps it drawn: resized with its
 * box (phone rotation, the print layout), replaced when the option changes, disposed
 * with the component.
 */
export function useChart(option: ChartOption | null) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  // The option to draw once the library has loaded, which may be after a few renders.
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let disposed = false;
    let observer: ResizeObserver | null = null;
    const print = matchMedia("print");
    const resize = () => chart.current?.resize();
    void loadLibrary().then(({ init }) => {
      if (disposed) return;
      // A high pixel ratio so the printed report is sharp, not the screen's 1x bitmap.
      chart.current = init(element, null, { renderer: "canvas", devicePixelRatio: Math.max(2, devicePixelRatio) });
      (element as ChartElement).chart = chart.current;
      if (latest.current) chart.current.setOption(latest.current, true);
      observer = new ResizeObserver(resize);
      observer.observe(element);
    });
    // Printing lays the page out anew without always telling ResizeObserver.
    addEventListener("beforeprint", resize);
    addEventListener("afterprint", resize);
    print.addEventListener("change", resize);
    return () => {
      disposed = true;
      observer?.disconnect();
      removeEventListener("beforeprint", resize);
      removeEventListener("afterprint", resize);
      print.removeEventListener("change", resize);
      chart.current?.dispose();
      chart.current = null;
      delete (element as ChartElement).chart;
    };
    // The chart lives as long as the element; option changes are the next effect's job.
  }, []);

  useEffect(() => {
    if (chart.current && option) chart.current.setOption(option, true);
  }, [option]);

  return ref;
}

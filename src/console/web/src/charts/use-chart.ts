import type { ECharts } from "echarts/core";
import { useEffect, useRef } from "preact/hooks";
import type * as EChartsModule from "./echarts.js";
import type { ChartOption } from "./echarts.js";
import { PRINT_SIZES, type PrintSize } from "./print-size.js";

// ECharts is loaded on first use, in its own chunk: the sign-in page does not wait for it.
let library: Promise<typeof EChartsModule> | null = null;
const loadLibrary = () => (library ??= import("./echarts.js"));

/**
 * A chart's element, holding its ECharts instance: the browser tests reach the chart
 * through it (`convertToPixel`, its drawn labels) to point at a mark by its data, not at a
 * guessed pixel.
 */
export type ChartElement = HTMLDivElement & { chart?: ECharts };

/**
 * Draws `option` into the returned element's ref, and keeps it drawn: resized with its
 * box (phone rotation), replaced when the option changes, disposed with the component.
 * Printing draws it anew at its paper size (`PRINT_SIZES`): the print layout is laid out
 * without running script, so a chart drawn for the screen would be cropped or squeezed.
 */
export function useChart(option: ChartOption | null, printSize: PrintSize) {
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
    let printing = false;
    const print = matchMedia("print");
    const resize = () => {
      if (!printing) chart.current?.resize();
    };
    // The box gets the paper size through the CSSOM (the policy allows that, not style
    // attributes), the chart is drawn at it at once: the page is laid out for paper next.
    const toPaper = () => {
      const { width, height } = PRINT_SIZES[printSize];
      printing = true;
      element.style.width = `${width}px`;
      element.style.height = `${height}px`;
      chart.current?.resize({ width, height });
      chart.current?.getZr().flush();
    };
    const toScreen = () => {
      printing = false;
      element.style.width = "";
      element.style.height = "";
      chart.current?.resize({ width: "auto", height: "auto" });
    };
    const onMedia = (event: MediaQueryListEvent) => (event.matches ? toPaper() : toScreen());
    void loadLibrary().then(({ init }) => {
      if (disposed) return;
      // A high pixel ratio so the printed report is sharp, not the screen's 1x bitmap.
      chart.current = init(element, null, { renderer: "canvas", devicePixelRatio: Math.max(2, devicePixelRatio) });
      (element as ChartElement).chart = chart.current;
      if (latest.current) chart.current.setOption(latest.current, true);
      if (printing || print.matches) toPaper();
      observer = new ResizeObserver(resize);
      observer.observe(element);
    });
    addEventListener("beforeprint", toPaper);
    addEventListener("afterprint", toScreen);
    // Print emulation (and some browsers' print preview) only change the media.
    print.addEventListener("change", onMedia);
    return () => {
      disposed = true;
      observer?.disconnect();
      removeEventListener("beforeprint", toPaper);
      removeEventListener("afterprint", toScreen);
      print.removeEventListener("change", onMedia);
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

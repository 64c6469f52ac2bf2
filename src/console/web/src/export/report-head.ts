import { useEffect } from "preact/hooks";
import { clientLine, type ReportContext } from "./report-context.js";

const APP_TITLE = "Commercial Policy Benchmark console";

/**
 * The report's title: the client, the coverage and the date. It is the page's title, so
 * a PDF printed from it is saved under the client's name, not the same name for every
 * client (issue 50).
 */
export function reportTitle(context: ReportContext): string {
  if (context.coverage === "" || context.coverage === "?") return APP_TITLE;
  return ["Peer benchmark", context.client, context.coverage, context.date].filter((part) => part !== "").join(" – ");
}

/** The line atop every printed page: whose report it is, with the id that tells two namesakes apart. */
export function runningHead(context: ReportContext): string {
  const client = clientLine(context);
  return [client ? `Peer benchmark: ${client}` : "Peer benchmark", context.coverage, context.date]
    .filter((part) => part !== "")
    .join(" · ");
}

/** A CSS string literal: `content` takes one. */
const cssString = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r]/g, " ")}"`;

/**
 * Keeps the page's title and the printed pages' running head (print.css, `@page`'s
 * top-left box, from the `--running-head` property) the report's. Set through the
 * CSSOM, which the page's style-src policy allows where an inline style would not be.
 */
export function useReportHead(context: ReportContext): void {
  useEffect(() => {
    document.title = reportTitle(context);
    document.documentElement.style.setProperty("--running-head", cssString(runningHead(context)));
    return () => {
      document.title = APP_TITLE;
      document.documentElement.style.removeProperty("--running-head");
    };
  }, [context]);
}

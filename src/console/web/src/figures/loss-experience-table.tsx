import type { LossExperience, LossExperienceFigures } from "../api/types.js";
import { count, dollarsOrDash, shortMoney } from "./format.js";
import { frequencyText, isThin, programsText, zeroLosses, type LimitColumn } from "./loss-experience-rows.js";
import { totalWithheldText, totalWithholding } from "./loss-experience-withheld.js";
import { withheldReason } from "./trend-rows.js";

interface LossExperienceTableProps {
  experience: LossExperience;
  columns: readonly LimitColumn[];
  /** Years on fewer programs are marked: their rate per 100 programs moves with one loss. */
  thinPrograms: number;
}

/**
 * A row's figures after its year. A withheld year (DISCLOSURE_RULE=standard) says so, and
 * why, in place of its programs and rate, which are unknown, not zero; its losses are
 * public and stay. Losses closed at $0 have a column of their own, and the severity and
 * the counts above each limit are of the paid losses only.
 */
function FigureCells({
  figures,
  columns,
  thin,
  shares,
  withheld,
}: {
  figures: LossExperienceFigures;
  columns: readonly LimitColumn[];
  thin: boolean;
  /** The share of the paid losses above each limit: the total's (a year's few losses make shares of 50% and 100%; the CSV has them). */
  shares: boolean;
  /** Why the programs are withheld, when they are: the total's own words (loss-experience-withheld.ts). */
  withheld?: string | undefined;
}) {
  const severity = figures.severity;
  return (
    <>
      {figures.withheld ? (
        <td colSpan={2} class="withheld-cell" data-testid="losses-withheld">
          Withheld: {withheld ?? withheldReason(figures.withheld)}
        </td>
      ) : (
        <>
          <td data-testid="losses-programs">
            {programsText(figures)}
            {thin ? (
              // A star, so the column stays narrow; a screen reader hears the words (the note below says them).
              <span class="thin-mark" data-testid="losses-thin">
                <span aria-hidden="true">*</span>
                <span class="visually-hidden"> (few programs)</span>
              </span>
            ) : null}
          </td>
          <td data-testid="losses-frequency">{frequencyText(figures)}</td>
        </>
      )}
      <td data-testid="losses-count">{count(figures.lossCount)}</td>
      <td data-testid="losses-zero">{count(zeroLosses(figures))}</td>
      <td data-testid="losses-paid">{count(figures.paidLossCount)}</td>
      {figures.exceeding.map((entry, i) => (
        <td key={i} class={columns[i]?.client ? "client-cell" : undefined} data-testid={`losses-above-${i}`}>
          {shares ? (
            <>
              {count(entry.count)}
              {entry.percent === null ? null : <span class="share"> ({entry.percent}%)</span>}
            </>
          ) : (
            count(entry.count)
          )}
        </td>
      ))}
      <td class="quartile-cell" data-testid="losses-q1">
        {dollarsOrDash(severity?.firstQuartile)}
      </td>
      <td data-testid="losses-median">{dollarsOrDash(severity?.median)}</td>
      <td class="quartile-cell" data-testid="losses-q3">
        {dollarsOrDash(severity?.thirdQuartile)}
      </td>
      <td data-testid="losses-average">{dollarsOrDash(severity?.average)}</td>
      <td data-testid="losses-max">{dollarsOrDash(severity?.max)}</td>
    </>
  );
}

/**
 * The loss experience, a row a year, oldest first as the API answers, and the total below:
 * how often (losses per 100 programs, every loss counted), how many paid losses passed each
 * limit, side by side, and how large the paid losses were (median, average, largest; the
 * quartiles where the panel is wide enough, never on paper: app.css, print.css).
 */
export function LossExperienceTable({ experience, columns, thinPrograms }: LossExperienceTableProps) {
  const { years, total } = experience;
  const withholding = totalWithholding(experience);
  return (
    <table class="loss-table">
      <caption class="visually-hidden">Loss experience by year, oldest first, and all the years</caption>
      <thead>
        {/* The limits share one heading, "Paid losses above", over a column each: narrow columns, short headings. */}
        <tr>
          <th scope="col" rowSpan={2} class="year-heading">
            Year
          </th>
          <th scope="col" rowSpan={2}>
            Programs
          </th>
          <th scope="col" rowSpan={2}>
            Losses per 100 programs
          </th>
          <th scope="col" rowSpan={2}>
            Losses
          </th>
          <th scope="col" rowSpan={2}>
            Closed at $0
          </th>
          <th scope="col" rowSpan={2}>
            Paid losses
          </th>
          {columns.length ? (
            <th scope="colgroup" colSpan={columns.length} class="group-heading">
              Paid losses above
            </th>
          ) : null}
          <th scope="col" rowSpan={2} class="quartile-cell">
            Paid loss, lower quartile
          </th>
          <th scope="col" rowSpan={2}>
            Median paid loss
          </th>
          <th scope="col" rowSpan={2} class="quartile-cell">
            Paid loss, upper quartile
          </th>
          <th scope="col" rowSpan={2}>
            Average paid loss
          </th>
          <th scope="col" rowSpan={2}>
            Largest paid loss
          </th>
        </tr>
        <tr>
          {columns.map((column, i) => (
            <th
              key={i}
              scope="col"
              class={column.client ? "client-cell" : undefined}
              data-testid={`losses-above-${i}-heading`}
            >
              <span class="visually-hidden">Paid losses above </span>
              {shortMoney(column.amount)}
              {column.client ? <span class="whose"> (the client's limit)</span> : null}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {years.map((year) => (
          <tr
            key={year.year}
            data-testid="losses-row"
            data-year={year.year}
            class={isThin(year, thinPrograms) ? "thin-row" : undefined}
          >
            <th scope="row">{year.year}</th>
            <FigureCells figures={year} columns={columns} thin={isThin(year, thinPrograms)} shares={false} />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="losses-total" class="total-row">
          <th scope="row" class="total-heading">
            All years
          </th>
          <FigureCells
            figures={total}
            columns={columns}
            thin={isThin(total, thinPrograms)}
            shares
            withheld={withholding ? totalWithheldText(withholding) : undefined}
          />
        </tr>
      </tfoot>
    </table>
  );
}

import { useMemo } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import { csvFilename, csvHeaderRows, type ReportContext } from "../export/report-context.js";
import type { AskedLossExperience } from "../results/use-loss-experience.js";
import type { LossYears } from "../state/peer-group.js";
import { FigurePanel } from "./figure-panel.js";
import { lossExperienceHeadline } from "./loss-experience-headline.js";
import { isThin, limitColumns, lossExperienceCsvRows, yearsSpan, yearsText } from "./loss-experience-rows.js";
import { LossExperienceTable } from "./loss-experience-table.js";
import { totalWithheldText, totalWithholding, type TotalWithholding } from "./loss-experience-withheld.js";
import { OtherLimitsFields } from "./other-limits-fields.js";
import { YearsSwitch } from "./years-switch.js";

interface LossExperienceFigureProps {
  asked: AskedLossExperience | null;
  years: LossYears;
  onYears: (years: LossYears) => void;
  otherLimits: readonly string[];
  onOtherLimits: (limits: string[]) => void;
  /** Years on fewer programs are marked (CONSOLE_THIN_GROUP_PROGRAMS). */
  thinPrograms: number;
  loading: boolean;
  problem: ApiProblem | null;
  context: ReportContext;
}

const TITLE = "Loss experience";

/**
 * The counts' note on withheld total programs. A year withheld withholds the total's too
 * (SEMANTICS.md 15: no count by subtraction), said so it is not read as a refusal of the
 * group; when the years together break the rule, that is said instead.
 */
function withheldNote(withholding: TotalWithholding | null): string {
  const n = withholding?.withheldYears ?? 0;
  if (!withholding || n === 0) return "; their programs are withheld.";
  const years = `the programs of ${n} of the years are withheld, and so are the total's, which would reveal them`;
  switch (withholding.kind) {
    case "own":
      return `; all the years' programs together break the rule (${withholding.reason}), and those of ${n} of the years do too.`;
    case "years":
      return `; ${years}.`;
    case "either":
      return `; ${years} and may themselves break the rule (${withholding.reason}).`;
  }
}

/**
 * How often the peers had a loss, year by year, how large the paid ones were, and how many
 * passed the client's limit and the others the broker weighs (SEMANTICS.md 15). It rests
 * on the programs effective and the losses dated in those calendar years, not on the
 * window; under the disclosure rule a year's programs may be withheld, never its losses.
 */
export function LossExperienceFigure({
  asked,
  years,
  onYears,
  otherLimits,
  onOtherLimits,
  thinPrograms,
  loading,
  problem,
  context,
}: LossExperienceFigureProps) {
  const experience = asked?.experience ?? null;
  const columns = useMemo(() => (asked ? limitColumns(asked.experience, asked.ask) : []), [asked]);
  const total = experience?.total ?? null;
  const rows = useMemo(
    () =>
      asked
        ? [
            ...csvHeaderRows(
              `${TITLE}, ${yearsSpan(asked.experience.total)}`,
              context,
              yearsText(asked.experience.total),
            ),
            ...lossExperienceCsvRows(asked.experience, asked.ask),
          ]
        : [],
    [asked, context],
  );
  const withholding = experience ? totalWithholding(experience) : null;
  const note = total
    ? `Programs effective and losses dated in ${yearsSpan(total)}, not the window's` +
      (total.programCount !== null ? "." : withheldNote(withholding))
    : undefined;
  const client = columns.some((c) => c.client);

  return (
    <FigurePanel
      id="loss-experience"
      title={TITLE}
      counts={{
        programs: total?.programCount ?? null,
        losses: total?.lossCount ?? null,
        lossesLabel: "Losses in the years",
        withheld: total !== null && total.programCount === null && total.withheld !== null,
        ...(note ? { programsNote: note } : {}),
      }}
      loading={loading}
      hasData={experience !== null}
      problem={problem}
      controls={
        <div class="loss-controls">
          <YearsSwitch value={years} onChange={onYears} />
          <OtherLimitsFields limits={otherLimits} onChange={onOtherLimits} />
        </div>
      }
      sentence={
        total ? lossExperienceHeadline(total, columns, withholding && totalWithheldText(withholding)) : undefined
      }
      clientNote={client ? context.amountsNote || undefined : undefined}
      csv={asked ? { filename: csvFilename(`loss-experience-${asked.experience.years.length}y`, context), rows } : null}
      numbers={
        experience ? (
          <LossExperienceTable experience={experience} columns={columns} thinPrograms={thinPrograms} />
        ) : null
      }
      facts={
        <div class="table-notes" data-testid="loss-experience-notes">
          <p>
            Losses per 100 programs count every loss, $0 ones too: a claim made is a claim. The paid-loss columns count
            only the losses paid above $0, those closed at $0 having their own column; their amounts are to the dollar
            (the CSV has the cents). A share above a limit is of the paid losses.
          </p>
          {experience && [...experience.years, experience.total].some((f) => isThin(f, thinPrograms)) ? (
            <p>
              *: fewer than {thinPrograms} programs that year, so a single loss moves its rate a lot: read it with care.
            </p>
          ) : null}
          {columns.length === 0 ? (
            <p data-testid="losses-no-limit">
              Enter the client's limit, or other limits to weigh, to see how many paid losses passed each.
            </p>
          ) : null}
        </div>
      }
    />
  );
}

import { useEffect, useRef, useState } from "preact/hooks";
import { getCompany, searchCompanies } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem } from "../api/problem.js";
import type { Company, CompanySummary, ReferenceData } from "../api/types.js";
import { companyHitMeta } from "./company-hit-meta.js";

interface CompanySearchProps {
  api: ApiClient;
  reference: ReferenceData | null;
  /** The chosen company's name, shown in the box when the group has one. */
  selectedName: string;
  /** Why the group's company (from a link) could not be found, shown in place. */
  error: string;
  onChoose(company: CompanySummary): void;
  /** The box was emptied on purpose: the group has no client any more. */
  onClear(): void;
}

const DEBOUNCE_MS = 250;
const PAGE = 10;

/**
 * Type-ahead over `GET company`, by any word of the name (`contains`), as an ARIA 1.2
 * combobox with a listbox popup (WAI-ARIA APG, "Combobox with list autocomplete"):
 * focus stays in the input, arrow keys move the active option, Enter chooses, Escape
 * closes. The last option loads more hits; each hit shows its sector and size.
 */
export function CompanySearch({ api, reference, selectedName, error, onChoose, onClear }: CompanySearchProps) {
  const [text, setText] = useState(selectedName);
  const [options, setOptions] = useState<CompanySummary[]>([]);
  const [details, setDetails] = useState<ReadonlyMap<number, Company>>(new Map());
  const [total, setTotal] = useState(0);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState({ text: "", failed: false });
  // Set while the box shows a chosen name, so that name is not searched for again.
  const chosen = useRef(selectedName !== "");
  const search = useRef<AbortController | null>(null);

  const typed = useRef(text);
  typed.current = text;
  useEffect(() => {
    // Not over what the broker is typing, nor blank while a chosen company's record loads
    // (its name is "" until found): either would lose what the box shows.
    if (!chosen.current && typed.current.trim() !== "") return;
    if (chosen.current && selectedName === "") return;
    setText(selectedName);
    chosen.current = selectedName !== "";
  }, [selectedName]);

  /** Reads each hit's record for its sector and size; a hit whose record fails just shows less. */
  const readDetails = (hits: CompanySummary[], signal: AbortSignal) => {
    for (const hit of hits) {
      getCompany(api, hit.id, signal).then(
        ({ data }) => setDetails((d) => new Map(d).set(hit.id, data)),
        () => {},
      );
    }
  };

  const load = (query: string, skip: number) => {
    search.current?.abort();
    const controller = new AbortController();
    search.current = controller;
    setStatus({ text: "Searching…", failed: false });
    searchCompanies(api, query, PAGE, skip, controller.signal).then(
      ({ data }) => {
        const shown = skip === 0 ? data.data : [...options.slice(0, skip), ...data.data];
        setOptions(shown);
        setTotal(data.totalCount);
        if (skip === 0) setActive(-1);
        setOpen(true);
        readDetails(data.data, controller.signal);
        const words =
          shown.length === 0
            ? `No company's name contains “${query}”.`
            : `${data.totalCount} ${data.totalCount === 1 ? "company" : "companies"} found${data.totalCount > shown.length ? `, ${shown.length} shown` : ""}: use the arrow keys and Enter, or click one.`;
        setStatus({ text: words, failed: false });
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setOptions([]);
        setOpen(false);
        setStatus({
          text: `The company search failed (${err instanceof ApiProblem ? err.detail : String(err)}); type again to retry.`,
          failed: true,
        });
      },
    );
  };

  useEffect(() => {
    const query = text.trim();
    if (chosen.current || query === "") {
      search.current?.abort();
      setOptions([]);
      setOpen(false);
      if (query === "") setStatus({ text: "", failed: false });
      return;
    }
    const timer = window.setTimeout(() => load(query, 0), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
    // `load` reads the options shown so far; a new text starts from none.
  }, [api, text]);

  useEffect(() => () => search.current?.abort(), []);

  const more = total > options.length;
  // The options the arrow keys reach: the hits, then "more" when there are more.
  const reachable = options.length + (more ? 1 : 0);

  const choose = (company: CompanySummary) => {
    chosen.current = true;
    setText(company.companyName);
    setOpen(false);
    setActive(-1);
    setStatus({ text: "", failed: false });
    onChoose(company);
  };

  const loadMore = () => load(text.trim(), options.length);

  /** The box shows the client's name again, as chosen: an edit left unpicked is undone. */
  const restoreChosen = () => {
    search.current?.abort();
    chosen.current = true;
    setText(selectedName);
    setOpen(false);
    setActive(-1);
    setStatus({
      text: `Still ${selectedName}: pick another company from the list, or empty the box for none.`,
      failed: false,
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (reachable === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + reachable) % reachable);
    } else if (event.key === "Enter") {
      if (!open) return;
      const option = options[active];
      if (option) {
        event.preventDefault();
        choose(option);
      } else if (more && active === options.length) {
        event.preventDefault();
        loadMore();
      }
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (!chosen.current && selectedName !== "") {
        event.preventDefault();
        restoreChosen();
      }
    }
  };

  const expanded = open && options.length > 0;
  const activeId = active === options.length ? "company-option-more" : `company-option-${options[active]?.id}`;
  return (
    <div class="field combobox">
      <label for="company-search">Company</label>
      <input
        id="company-search"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls="company-listbox"
        aria-activedescendant={expanded && active >= 0 ? activeId : undefined}
        aria-describedby="company-search-status company-search-hint"
        aria-invalid={error !== ""}
        autocomplete="off"
        spellcheck={false}
        placeholder="Any word of the company's name"
        value={text}
        data-testid="company-search"
        onInput={(event) => {
          chosen.current = false;
          setText(event.currentTarget.value);
        }}
        // Only an emptied box drops the client, on purpose (issue 50): a name edited but not
        // picked goes back to the client's, so a stray space never loses the client's amounts.
        onChange={() => {
          if (chosen.current || selectedName === "") return;
          if (text.trim() === "") onClear();
          else restoreChosen();
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(options.length > 0)}
      />
      {error ? (
        <p class="hint error" role="alert" data-testid="company-error">
          {error}
        </p>
      ) : null}
      {/* Visible, and live: a sighted broker sees the search working (or failing) as a screen reader hears it. */}
      <p
        id="company-search-status"
        class={status.failed ? "hint error" : "hint"}
        aria-live="polite"
        data-testid="company-search-status"
      >
        {status.text}
      </p>
      <p id="company-search-hint" class="hint">
        Choosing a company fills in its NAICS sector, exposure and organization type, and starts a new client: its
        amounts are cleared.
      </p>
      <ul id="company-listbox" role="listbox" aria-label="Companies" class="listbox" hidden={!expanded}>
        {options.map((company, i) => {
          const record = details.get(company.id);
          return (
            <li
              key={company.id}
              id={`company-option-${company.id}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? "option active" : "option"}
              data-testid="company-option"
              data-company-id={company.id}
              // mousedown would blur the input (closing the list) before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(company)}
            >
              <span>{company.companyName}</span>
              <span class="option-meta" data-testid="company-option-meta">
                {record ? companyHitMeta(record, reference) : company.organizationType}
              </span>
            </li>
          );
        })}
        {more ? (
          <li
            id="company-option-more"
            role="option"
            aria-selected={active === options.length}
            class={active === options.length ? "option option-more active" : "option option-more"}
            data-testid="company-more"
            onMouseDown={(event) => event.preventDefault()}
            onClick={loadMore}
          >
            Show {Math.min(PAGE, total - options.length)} more ({total - options.length} not shown)
          </li>
        ) : null}
      </ul>
    </div>
  );
}

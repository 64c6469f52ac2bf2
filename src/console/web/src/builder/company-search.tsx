import { useEffect, useRef, useState } from "preact/hooks";
import { searchCompanies } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem } from "../api/problem.js";
import type { CompanySummary } from "../api/types.js";

interface CompanySearchProps {
  api: ApiClient;
  /** The chosen company's name, shown in the box when the group has one. */
  selectedName: string;
  onChoose(company: CompanySummary): void;
}

const DEBOUNCE_MS = 250;
const MAX_OPTIONS = 10;

/**
 * Type-ahead over `GET company` with `startswith(CompanyName, ...)`, as an ARIA 1.2
 * combobox with a listbox popup (WAI-ARIA APG, "Combobox with list autocomplete"):
 * focus stays in the input, arrow keys move the active option, Enter chooses, Escape closes.
 */
export function CompanySearch({ api, selectedName, onChoose }: CompanySearchProps) {
  const [text, setText] = useState(selectedName);
  const [options, setOptions] = useState<CompanySummary[]>([]);
  const [total, setTotal] = useState(0);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState({ text: "", failed: false });
  // Set while the box shows a chosen name, so that name is not searched for again.
  const chosen = useRef(selectedName !== "");

  useEffect(() => {
    setText(selectedName);
    chosen.current = selectedName !== "";
  }, [selectedName]);

  useEffect(() => {
    const prefix = text.trim();
    if (chosen.current || prefix === "") {
      setOptions([]);
      setOpen(false);
      if (prefix === "") setStatus({ text: "", failed: false });
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setStatus({ text: "Searching…", failed: false });
      searchCompanies(api, prefix, MAX_OPTIONS, controller.signal).then(
        ({ data }) => {
          setOptions(data.data);
          setTotal(data.totalCount);
          setActive(-1);
          setOpen(true);
          const text =
            data.data.length === 0
              ? `No company's name starts with “${prefix}”.`
              : `${data.totalCount} ${data.totalCount === 1 ? "company" : "companies"} found${data.totalCount > data.data.length ? `, ${data.data.length} shown` : ""}: use the arrow keys and Enter, or click one.`;
          setStatus({ text, failed: false });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          setOptions([]);
          setOpen(false);
          setStatus({ text: `The company search failed (${err instanceof ApiProblem ? err.detail : String(err)}); type again to retry.`, failed: true });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [api, text]);

  const choose = (company: CompanySummary) => {
    chosen.current = true;
    setText(company.companyName);
    setOpen(false);
    setActive(-1);
    setStatus({ text: "", failed: false });
    onChoose(company);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (event.key === "Enter") {
      const option = options[active];
      if (open && option) {
        event.preventDefault();
        choose(option);
      }
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  const expanded = open && options.length > 0;
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
        aria-activedescendant={expanded && active >= 0 ? `company-option-${options[active]?.id}` : undefined}
        aria-describedby="company-search-status company-search-hint"
        autocomplete="off"
        spellcheck={false}
        placeholder="Start typing a company name"
        value={text}
        data-testid="company-search"
        onInput={(event) => {
          chosen.current = false;
          setText(event.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(options.length > 0)}
      />
      {/* Visible, and live: a sighted broker sees the search working (or failing) as a screen reader hears it. */}
      <p id="company-search-status" class={status.failed ? "hint error" : "hint"} aria-live="polite" data-testid="company-search-status">
        {status.text}
      </p>
      <p id="company-search-hint" class="hint">
        Choosing a company fills in its NAICS code, exposure and organization type.
      </p>
      <ul id="company-listbox" role="listbox" aria-label="Companies" class="listbox" hidden={!expanded}>
        {options.map((company, i) => (
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
            <span class="option-meta">{company.organizationType}</span>
          </li>
        ))}
        {total > options.length ? (
          <li role="presentation" class="option-more">
            {total - options.length} more: keep typing to narrow
          </li>
        ) : null}
      </ul>
    </div>
  );
}

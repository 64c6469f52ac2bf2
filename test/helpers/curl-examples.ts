/**
 * The curl commands of a Markdown document's shell code blocks, read as the shell and
 * curl would read them: continuation lines joined, quotes and `$VAR` expansion (from
 * the blocks' own `NAME=value` lines), and the request method curl would use.
 */
export interface CurlExample {
  /** 1-based line of the command in the document. */
  line: number;
  command: string;
  method: string;
  url: URL;
  /** The `-d` data, when the command sends some. */
  body?: string;
}

/** Options of curl that take an argument; the argument is never the URL. */
const WITH_ARGUMENT = new Set([
  "-H",
  "--header",
  "-o",
  "--output",
  "-u",
  "--user",
  "-A",
  "--user-agent",
  "-e",
  "--referer",
  "-w",
  "--write-out",
  "-m",
  "--max-time",
  "--connect-timeout",
  "-b",
  "--cookie",
  "-c",
  "--cookie-jar",
  "--cacert",
  "-x",
  "--proxy",
]);
const DATA = new Set(["-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json"]);

export function curlExamples(markdown: string): CurlExample[] {
  const lines = markdown.split("\n");
  const variables = new Map<string, string>();
  const examples: CurlExample[] = [];
  let block: "shell" | "other" | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)/.exec(lines[i]!);
    if (fence) {
      block =
        block !== undefined
          ? undefined
          : ["sh", "bash", "shell", "console", ""].includes(fence[1]!)
            ? "shell"
            : "other";
      continue;
    }
    if (block !== "shell") continue;
    const start = i;
    let command = lines[i]!;
    while (command.endsWith("\\") && i + 1 < lines.length) command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`;
    command = command.trim();
    const assignment = /^([A-Za-z_]\w*)=(.*)$/.exec(command);
    if (assignment && !assignment[2]!.includes("$("))
      variables.set(assignment[1]!, shellWords(assignment[2]!, variables)[0] ?? "");
    if (/^curl\s/.test(command)) examples.push(readCurl(command, start + 1, variables));
  }
  return examples;
}

function readCurl(command: string, line: number, variables: ReadonlyMap<string, string>): CurlExample {
  const words = shellWords(command, variables).slice(1);
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  let head = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-X" || word === "--request") method = words[++i];
    else if (DATA.has(word)) body = words[++i];
    else if (word === "-I" || word === "--head") head = true;
    else if (word === "--url") url = words[++i];
    else if (WITH_ARGUMENT.has(word)) i++;
    else if (!word.startsWith("-") && url === undefined) url = word;
  }
  if (url === undefined) throw new Error(`line ${line}: no URL in ${command}`);
  return {
    line,
    command,
    method: method ?? (head ? "HEAD" : body !== undefined ? "POST" : "GET"),
    url: new URL(url),
    ...(body === undefined ? {} : { body }),
  };
}

/** A command's words, after quote removal and `$VAR` / `${VAR}` expansion (never inside single quotes). */
function shellWords(text: string, variables: ReadonlyMap<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (at: number): [string, number] => {
    const name = /^\$(?:\{(\w+)\}|(\w+))/.exec(text.slice(at));
    if (!name) return ["$", at + 1];
    const key = name[1] ?? name[2]!;
    const value = variables.get(key);
    // Left as written when the document never sets it (a token): a URL holding one fails to match.
    return [value ?? name[0], at + name[0].length];
  };
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === "#" && word === undefined) break; // a comment runs to the end of the line
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      // An unclosed quote runs to the end of the text (the shell would read on).
      const end = text.indexOf("'", i + 1) < 0 ? text.length : text.indexOf("'", i + 1);
      word = (word ?? "") + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      word ??= "";
      for (i++; i < text.length && text[i] !== '"';) {
        if (text[i] === "$") {
          const [value, next] = expand(i);
          word += value;
          i = next;
        } else if (text[i] === "\\" && /["\\$`]/.test(text[i + 1] ?? "")) {
          word += text[i + 1];
          i += 2;
        } else word += text[i++];
      }
      i++;
    } else if (c === "$") {
      const [value, next] = expand(i);
      word = (word ?? "") + value;
      i = next;
    } else if (c === "\\") {
      word = (word ?? "") + (text[i + 1] ?? "");
      i += 2;
    } else {
      word = (word ?? "") + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

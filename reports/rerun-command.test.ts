import { describe, expect, it } from "vitest";
import { focusPattern, rerunCommand, shellQuote, splitShellWords } from "./rerun-command.ts";

describe("rerunCommand", () => {
  it("keeps the target flags, drops the selection, output and credential flags, and focuses on one case", () => {
    const command =
      "npx tsx scripts/cli.ts conformance --server https://k:6443 --token=REDACTED --restricted-token s3cr3t --focus '^paging/' --skip x --report-dir out --dialect kubernetes --read-only --certificate-authority 'ca dir/ca.crt'";
    expect(rerunCommand({ command }, "paging/rv0-any")).toBe(
      "npx tsx scripts/cli.ts conformance --server https://k:6443 --dialect kubernetes --read-only --certificate-authority 'ca dir/ca.crt' --focus '^paging/rv0-any$'",
    );
  });

  it("works from an empty command and from `orb-harness conformance`", () => {
    expect(rerunCommand({ command: "" }, "a/b")).toBe("npx tsx scripts/cli.ts conformance --focus '^a/b$'");
    expect(rerunCommand({ command: "orb-harness conformance --kubeconfig /k --context kind-kind" }, "a/b")).toBe(
      "npx tsx scripts/cli.ts conformance --kubeconfig /k --context kind-kind --focus '^a/b$'",
    );
  });

  it("escapes regex syntax and quotes for the shell, so the pattern matches exactly the id", () => {
    const id = `x/it's (a) [b].c+d*|e$^\\`;
    const command = rerunCommand({ command: "" }, id);
    const focus = splitShellWords(command).at(-1)!;
    expect(focus).toBe(focusPattern(id));
    expect(new RegExp(focus).test(id)).toBe(true);
    expect(new RegExp(focus, "u").test(id)).toBe(true);
    expect(new RegExp(focus).test(`${id}x`)).toBe(false);
  });
});

describe("splitShellWords and shellQuote", () => {
  it("split quotes and escapes like a POSIX shell, and quoting round-trips", () => {
    expect(splitShellWords(`a 'b c' "d \\"e\\" \\n" f\\ g ''`)).toEqual(["a", "b c", 'd "e" \\n', "f g", ""]);
    for (const word of ["plain", "with space", "it's", `"dq"`, "$HOME", "", "a\nb"]) {
      expect(splitShellWords(shellQuote(word))).toEqual([word]);
    }
  });
});

import { describe, expect, it } from "vitest";
import { escapeMarkupAttr, escapeMarkupText, replaceForbiddenChars } from "./markup-escape.ts";

describe("markup escaping", () => {
  it("escapes &, <, > in text, so ]]> cannot end anything", () => {
    expect(escapeMarkupText(`a & b < c > d ]]> "q" 'a'`)).toBe(`a &amp; b &lt; c &gt; d ]]&gt; "q" 'a'`);
  });

  it("escapes quotes and keeps tab, LF and CR in attributes as character references", () => {
    expect(escapeMarkupAttr(`"a" 'b' <&>\t\n\r`)).toBe("&quot;a&quot; &#39;b&#39; &lt;&amp;&gt;&#9;&#10;&#13;");
  });

  it("replaces controls XML 1.0 forbids, C1 controls, U+FFFE/U+FFFF and lone surrogates; keeps emoji and tab/LF/CR", () => {
    expect(replaceForbiddenChars("a\u0000b\u0008c\u000Bd\u001Fe\u007Ff\u009Fg\uFFFEh\uFFFF")).toBe(
      "a\\u0000b\\u0008c\\u000Bd\\u001Fe\\u007Ff\\u009Fg\\uFFFEh\\uFFFF",
    );
    expect(replaceForbiddenChars("x\uD800y\uDC00z")).toBe("x\uFFFDy\uFFFDz");
    expect(replaceForbiddenChars("🚀\t\n\r é")).toBe("🚀\t\n\r é");
  });
});

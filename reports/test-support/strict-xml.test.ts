import { describe, expect, it } from "vitest";
import { childElements, parseXml, textContent, XmlSyntaxError } from "./strict-xml.ts";

describe("the strict XML checker the JUnit tests rely on", () => {
  it("parses a document and decodes entities in text and attributes", () => {
    const root = parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 &quot;&lt;&amp;&#10;&#x1F680;">t &lt;&gt;&amp; <b/><!-- c --><![CDATA[<raw>]]></a>\n`);
    expect(root.name).toBe("a");
    expect(root.attributes["x"]).toBe('1 "<&\n🚀');
    expect(childElements(root, "b")).toHaveLength(1);
    expect(textContent(root)).toBe("t <>& <raw>");
  });

  it.each([
    ["a bare &", "<a>x & y</a>"],
    ["an unknown entity", "<a>&nbsp;</a>"],
    ["a < in an attribute", `<a x="<"/>`],
    ["an unquoted attribute", "<a x=1/>"],
    ["a duplicate attribute", `<a x="1" x="2"/>`],
    ["a mismatched end tag", "<a><b></a></b>"],
    ["two roots", "<a/><b/>"],
    ["]]> in text", "<a>]]></a>"],
    ["a control character", "<a>\u0007</a>"],
    ["a reference to a control character", "<a>&#7;</a>"],
    ["a lone surrogate", "<a>\uD800</a>"],
    ["-- in a comment", "<a><!-- a -- b --></a>"],
    ["an unclosed element", "<a><b></b>"],
  ])("rejects %s", (_name, source) => {
    expect(() => parseXml(source)).toThrow(XmlSyntaxError);
  });
});

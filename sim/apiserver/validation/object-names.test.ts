import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { generateNameSuffixLength, invalidObjectMessage, invalidValueMessage, maxGenerateNamePrefixLength, nameFromGenerateName, nameKindForResource, nameValidationCauses, regexError, validateGenerateName, validateName } from "./object-names.ts";
import { goQuote } from "../responses/go-text.ts";

const transcripts = loadReferenceTranscripts();

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe("validateName", () => {
  it("gives the transcript's subdomain message, byte for byte", () => {
    expect(validateName("subdomain", "Bad_Name!")).toEqual([SUBDOMAIN]);
  });

  it("gives Kubernetes' label and DNS-1035 messages (with their double space before 'or')", () => {
    expect(validateName("label", "Bad")).toEqual([LABEL]);
    expect(validateName("dns1035", "1abc")).toEqual([DNS1035]);
  });

  const valid: Record<"subdomain" | "label" | "dns1035", string[]> = {
    subdomain: ["a", "0", "cm-1", "example.com", "a.b.c", "1-2.3-4", "x".repeat(253), `${"a".repeat(63)}.${"b".repeat(63)}`],
    label: ["a", "0", "kube-system", "123-abc", "x".repeat(63)],
    dns1035: ["a", "my-name", "abc-123", "x".repeat(63)],
  };
  const invalid: Record<"subdomain" | "label" | "dns1035", string[]> = {
    subdomain: ["", "A", "Bad_Name!", "-a", "a-", ".a", "a.", "a..b", "a_b", "a b", "é", "a/b", ".", ".."],
    label: ["", "A", "a.b", "-a", "a-", "a_b", "example.com"],
    dns1035: ["", "1abc", "0", "-a", "a-", "A", "a.b", "a_b"],
  };
  for (const kind of ["subdomain", "label", "dns1035"] as const) {
    it(`accepts valid ${kind} names`, () => {
      for (const name of valid[kind]) expect(validateName(kind, name), name).toEqual([]);
    });
    it(`rejects invalid ${kind} names with one pattern message`, () => {
      for (const name of invalid[kind]) expect(validateName(kind, name), name).toHaveLength(1);
    });
  }

  it("reports length before pattern, and counts UTF-8 bytes", () => {
    expect(validateName("subdomain", "a".repeat(254))).toEqual(["must be no more than 253 characters"]);
    expect(validateName("label", "a".repeat(64))).toEqual(["must be no more than 63 characters"]);
    expect(validateName("dns1035", "A".repeat(64))).toEqual(["must be no more than 63 characters", DNS1035]);
    // 32 'é' are 64 bytes: too long for a label although only 32 characters.
    expect(validateName("label", "é".repeat(32))).toEqual(["must be no more than 63 characters", LABEL]);
  });

  it("keeps 1.26's label wording for dotted names (no 'must not contain dots')", () => {
    expect(validateName("label", "a.b")).toEqual([LABEL]);
  });

  it("agrees with the grammar on random strings (property)", () => {
    const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "z", "0", "9", "-", ".", "A", "_"), maxLength: 12 }), (name) => {
        expect(validateName("subdomain", name).length === 0).toBe(subdomain.test(name));
        if (validateName("label", name).length === 0) expect(validateName("subdomain", name)).toEqual([]);
        if (validateName("dns1035", name).length === 0) expect(validateName("label", name)).toEqual([]);
      }),
    );
  });
});

describe("validateGenerateName", () => {
  it("allows a trailing '-' (the suffix follows it)", () => {
    expect(validateGenerateName("subdomain", "cm-")).toEqual([]);
    expect(validateGenerateName("dns1035", "svc-")).toEqual([]);
    expect(validateGenerateName("subdomain", "cm")).toEqual([]);
  });

  it("masks like Kubernetes: the last two characters become 'a', so 'a.-' passes and '-' alone does not", () => {
    expect(validateGenerateName("subdomain", "a.-")).toEqual([]);
    expect(validateGenerateName("subdomain", "-")).toEqual([SUBDOMAIN]);
    expect(validateGenerateName("subdomain", "Bad-")).toEqual([SUBDOMAIN]);
  });
});

describe("nameFromGenerateName", () => {
  it("appends the suffix to a short prefix", () => {
    expect(nameFromGenerateName("cm-", "x7k2q")).toBe("cm-x7k2q");
  });

  it("cuts the prefix to 58 so prefix+5 fits 63, for every kind of name", () => {
    expect(maxGenerateNamePrefixLength).toBe(58);
    expect(generateNameSuffixLength).toBe(5);
    const name = nameFromGenerateName("p".repeat(100), "abcde");
    expect(name).toBe(`${"p".repeat(58)}abcde`);
    expect(name).toHaveLength(63);
    expect(nameFromGenerateName("p".repeat(58), "abcde")).toHaveLength(63);
  });

  it("never exceeds 63 characters with a 5-character suffix (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ minLength: 5, maxLength: 5 }), (prefix, suffix) => {
        const name = nameFromGenerateName(prefix, suffix);
        expect(name.length).toBeLessThanOrEqual(63);
        expect(name.endsWith(suffix)).toBe(true);
        expect(prefix.startsWith(name.slice(0, -5))).toBe(true);
      }),
    );
  });
});

describe("nameKindForResource", () => {
  it("uses labels for namespaces, DNS-1035 for services, subdomains for the rest", () => {
    expect(nameKindForResource("namespaces")).toBe("label");
    expect(nameKindForResource("services")).toBe("dns1035");
    for (const resource of ["configmaps", "secrets", "pods", "nodes", "leases", "events", "deployments"]) {
      expect(nameKindForResource(resource)).toBe("subdomain");
    }
  });
});

describe("nameValidationCauses and invalidObjectMessage", () => {
  it("build the transcript's 422 for an invalid ConfigMap name", () => {
    const causes = nameValidationCauses("subdomain", "Bad_Name!");
    expect(causes).toEqual([{ reason: "FieldValueInvalid", message: `Invalid value: "Bad_Name!": ${SUBDOMAIN}`, field: "metadata.name" }]);
    expect(invalidObjectMessage("ConfigMap", "Bad_Name!", causes)).toBe(`ConfigMap "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!": ${SUBDOMAIN}`);
  });

  it("match transcript create-invalid-name exactly", () => {
    const status = transcriptJson(transcriptById(transcripts, "create-invalid-name")) as {
      message: string;
      details: { causes: unknown[] };
    };
    const causes = nameValidationCauses("subdomain", "Bad_Name!");
    expect(causes).toEqual(status.details.causes);
    expect(invalidObjectMessage("ConfigMap", "Bad_Name!", causes)).toBe(status.message);
  });

  it("require a name when there is neither name nor generateName", () => {
    const causes = nameValidationCauses("subdomain", undefined);
    expect(causes).toEqual([{ reason: "FieldValueRequired", message: "Required value: name or generateName is required", field: "metadata.name" }]);
    expect(invalidObjectMessage("ConfigMap", "", causes)).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it("list generateName causes before name causes, and aggregate several as [a, b]", () => {
    const causes = nameValidationCauses("subdomain", "Bad_x7k2q", "Bad_");
    expect(causes.map((cause) => cause.field)).toEqual(["metadata.generateName", "metadata.name"]);
    expect(causes[0]!.message).toBe(`Invalid value: "Bad_": ${SUBDOMAIN}`);
    expect(invalidObjectMessage("ConfigMap", "Bad_x7k2q", causes)).toBe(
      `ConfigMap "Bad_x7k2q" is invalid: [metadata.generateName: Invalid value: "Bad_": ${SUBDOMAIN}, metadata.name: Invalid value: "Bad_x7k2q": ${SUBDOMAIN}]`,
    );
  });

  it("give one cause per problem, and none for valid names", () => {
    expect(nameValidationCauses("label", "A".repeat(64))).toHaveLength(2);
    expect(nameValidationCauses("subdomain", "cm-x7k2q", "cm-")).toEqual([]);
  });

  it("qualify kinds of named groups as the caller passes them, and drop duplicate lines", () => {
    const cause = { message: "Invalid value: \"x\": bad", field: "metadata.name" };
    expect(invalidObjectMessage("Deployment.apps", "x", [cause, cause])).toBe('Deployment.apps "x" is invalid: metadata.name: Invalid value: "x": bad');
    expect(invalidObjectMessage("ConfigMap", "x", [])).toBe('ConfigMap "x" is invalid');
  });
});

describe("goQuote", () => {
  it("quotes like Go's %q", () => {
    expect(goQuote("Bad_Name!")).toBe('"Bad_Name!"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote("\n\t\r\x07\x08\x0b\x0c")).toBe('"\\n\\t\\r\\a\\b\\v\\f"');
    expect(goQuote("\x01\x7f")).toBe('"\\x01\\x7f"');
    expect(goQuote("\u0085\u00a0\u200b\u2028")).toBe('"\\u0085\\u00a0\\u200b\\u2028"');
    expect(goQuote("é日本🙂")).toBe('"é日本🙂"');
    expect(goQuote("\u{e0001}")).toBe('"\\U000e0001"');
    expect(goQuote("\ud800")).toBe('"\ufffd"');
    expect(goQuote("")).toBe('""');
  });

  it("agrees with JSON.stringify on printable ASCII (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) }), (text) => {
        expect(goQuote(text)).toBe(JSON.stringify(text));
      }),
    );
  });
});

describe("message helpers", () => {
  it("format RegexError with and without examples", () => {
    expect(regexError("m", "p", [])).toBe("m (regex used for validation is 'p')");
    expect(regexError("m", "p", ["a"])).toBe("m (e.g. 'a', regex used for validation is 'p')");
    expect(regexError("m", "p", ["a", "b", "c"])).toBe("m (e.g. 'a',  or 'b',  or 'c', regex used for validation is 'p')");
  });

  it("format an Invalid value with or without a detail", () => {
    expect(invalidValueMessage("x", "why")).toBe('Invalid value: "x": why');
    expect(invalidValueMessage("x", "")).toBe('Invalid value: "x"');
  });
});

/**
 * oslo.config's INI files from typed sections. A value is written as it is, so one holding a line
 * break would start a new key or section of its own: refused, as is a key or section name that
 * is not a plain word.
 */
export type IniValue = string | number | boolean;

export function iniFile(sections: Record<string, Record<string, IniValue | undefined>>): string {
  const word = /^[A-Za-z0-9_.-]+$/;
  const out: string[] = [];
  for (const [section, entries] of Object.entries(sections)) {
    if (!word.test(section)) throw new Error(`INI section '${section}' is not a plain name`);
    out.push(`[${section}]`);
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) continue;
      if (!word.test(key)) throw new Error(`INI key '${key}' in [${section}] is not a plain name`);
      const text = String(value);
      // The value itself is never in the message: it may be a password.
      if (/[\r\n]/.test(text)) throw new Error(`INI value of '${key}' in [${section}] holds a line break`);
      out.push(`${key} = ${text}`);
    }
    out.push("");
  }
  return out.join("\n");
}

/** Language of a text (a PAL-Set copy, a model reply), told from its characters: the share of CJK characters among letters. */

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

export function hasCjk(s: string): boolean {
  return CJK.test(s);
}

/** Counts CJK characters and Latin letters in a text (Latin words weigh per letter, so a Chinese
 *  sentence with an app name in it stays Chinese). */
export class LanguageCounter {
  cjk = 0;
  latin = 0;
  add(s: string): void {
    let cjk = 0,
      latin = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff)) cjk++;
      else if ((c | 32) >= 97 && (c | 32) <= 122) latin++;
    }
    this.cjk += cjk;
    // An English letter carries about a third of a Chinese character's content.
    this.latin += latin / 3;
  }
  get cjkShare(): number {
    const n = this.cjk + this.latin;
    return n === 0 ? 0 : this.cjk / n;
  }
  language(): "zh" | "en" {
    return this.cjkShare >= 0.5 ? "zh" : "en";
  }
}

/** Whether a string is in the other language than the data set's: any CJK character in an English
 *  set (the published translation left some Chinese behind); a Chinese-set string without any CJK
 *  character but with real English words. */
export function isOtherLanguage(s: string, lang: "zh" | "en"): boolean {
  if (lang === "en") return CJK.test(s);
  return !CJK.test(s) && /[A-Za-z]{3,}(?:\W+[A-Za-z]{2,}){2,}/.test(s);
}

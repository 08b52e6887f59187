import { describe, expect, it } from "vitest";
import { jiebaCut, segment } from "./segment";

describe("segment (jieba accurate cut, HMM on, as Python jieba 0.42)", () => {
  it("cuts number ranges, dates and joined codes at the separator, as Python jieba does", () => {
    // Python jieba: 每周 / 3 / - / 5 / 次 ; the Rust port alone gives 3-5 as one token
    expect(jiebaCut("每周3-5次")).toEqual(["每周", "3", "-", "5", "次"]);
    expect(jiebaCut("会议在2024-01-12举行")).toEqual(["会议", "在", "2024", "-", "01", "-", "12", "举行"]);
    expect(jiebaCut("预算500-800元")).toEqual(["预算", "500", "-", "800", "元"]);
    expect(jiebaCut("打折5-10%")).toEqual(["打折", "5", "-", "10%"]);
    expect(jiebaCut("价格5%3折")).toEqual(["价格", "5%", "3", "折"]);
    expect(jiebaCut("编号A_1")).toEqual(["编号", "A", "_", "1"]);
  });

  it("leaves what both agree on untouched", () => {
    expect(jiebaCut("版本v1.2.3发布")).toEqual(["版本", "v1.2", ".", "3", "发布"]);
    expect(jiebaCut("时间15:30")).toEqual(["时间", "15", ":", "30"]);
    expect(jiebaCut("我今天想去公园散步")).toEqual(["我", "今天", "想", "去", "公园", "散步"]);
  });

  it("keeps jieba's whitespace tokens by default, as Mem-PAL's metrics.py (list(jieba.cut(text))) does", () => {
    // Expected value read from Python jieba 0.42's behaviour: each space of a non-Chinese run is its own token.
    expect(segment("The user wants 3-5 options")).toEqual(["The", " ", "user", " ", "wants", " ", "3", "-", "5", " ", "options"]);
    expect(segment("a  b")).toEqual(["a", " ", " ", "b"]);
  });

  it("drops whitespace-only tokens on request (the labelled option)", () => {
    expect(segment("The user wants 3-5 options", { whitespace: "drop" })).toEqual(["The", "user", "wants", "3", "-", "5", "options"]);
  });
});

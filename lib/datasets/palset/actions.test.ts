import { describe, expect, it } from "vitest";
import { actionCode, assignTopics, isRoleAction } from "./actions";
import { inferLogType } from "./log-types";
import { LanguageCounter, isOtherLanguage } from "@/lib/llm/language";

describe("action codes", () => {
  it.each([
    ["话题询问", "topic_inquiry"],
    ["需求确认", "requirement_confirmation"],
    ["方案讨论", "solution_discussion"],
    ["方案反馈", "solution_feedback"],
    ["需求推测", "requirement_prediction"],
    ["方案提议", "solution_proposal"],
    ["反馈回应", "feedback_response"],
    ["<话题询问>", "topic_inquiry"],
    [" 方案 提议 ", "solution_proposal"],
    ["Topic Inquiry", "topic_inquiry"],
    ["topic inquiry", "topic_inquiry"],
    ["TOPIC_INQUIRY", "topic_inquiry"],
    ["<Requirement Confirmation>", "requirement_confirmation"],
    ["Solution Discussion", "solution_discussion"],
    ["Solution Feedback", "solution_feedback"],
    ["Requirement Prediction", "requirement_prediction"],
    ["Requirement Inference", "requirement_prediction"],
    ["Demand Speculation", "requirement_prediction"],
    ["Solution Proposal", "solution_proposal"],
    ["Proposal of Solution", "solution_proposal"],
    ["Feedback Response", "feedback_response"],
    ["feedback-response", "feedback_response"],
    ["Topic Query", "topic_inquiry"],
  ])("%s → %s", (label, code) => {
    expect(actionCode(label)).toBe(code);
  });

  it.each(["Greeting", "", "闲聊", "Solution", "Topic Inquiry Now Please"])("unknown: %j", (label) => {
    expect(actionCode(label)).toBeNull();
  });

  it("knows which role does what", () => {
    expect(isRoleAction("user", "topic_inquiry")).toBe(true);
    expect(isRoleAction("assistant", "topic_inquiry")).toBe(false);
    expect(isRoleAction("assistant", "solution_discussion")).toBe(true);
    expect(isRoleAction("user", "solution_discussion")).toBe(true);
  });
});

describe("turn → topic assignment", () => {
  const T = "topic_inquiry" as const;
  it("each Topic Inquiry starts the next topic", () => {
    expect(assignTopics([T, "requirement_confirmation", "solution_feedback", T, "requirement_confirmation"], 2)).toEqual([0, 0, 0, 1, 1]);
  });
  it("turns before the first inquiry belong to the first topic; beyond the last topic: null", () => {
    expect(assignTopics(["requirement_confirmation", T, null, T, T], 2)).toEqual([0, 0, 0, 1, null]);
    expect(assignTopics([T], 0)).toEqual([null]);
  });
});

describe("log types", () => {
  it.each([
    ['The user searched for "gym near me" and viewed a map.', "web_search"],
    ["The user published a post on Weibo, with the main content summarized as: a run.", "content_publishing"],
    ["The user browsed a product page on JD, with the main content summarized as: shoes.", "content_browsing"],
    ["The user sent a message to his wife: 'Home late.'", "message_sending"],
    ["The user received a message from the bank app: 'Payment due.'", "message_receiving"],
    ["The user created a schedule named 'Standup' in Outlook, time: 9:00-9:15, location: office.", "schedule_management"],
    ["The user completed a purchase of product via Meituan, product: salad.", "transaction_record"],
    ["The user performed a navigation operation on the smartphone: destination set to the office.", "device_operation"],
    ["用户搜索了“健身房”，并查看了地图。", "web_search"],
    ["用户在微博发布了动态，主要内容为：跑步。", "content_publishing"],
    ["用户浏览了京东的商品页面，主要内容为：跑鞋。", "content_browsing"],
    ["用户向妻子发送消息：“晚点回家。”", "message_sending"],
    ["用户接收到来自医院APP的推送消息：“请按时服药。”", "message_receiving"],
    ["用户收到了来自银行的消息：“还款提醒。”", "message_receiving"],
    ["用户在手机日历创建了“周会”日程，时间：9:00-9:15。", "schedule_management"],
    ["用户通过美团APP完成商品购买，产品：沙拉。", "transaction_record"],
    ["用户在手机上进行了餐厅预订操作：选择“江南食府”。", "device_operation"],
    ["用户浏览了美团外卖的咖啡选项，主要内容为：下单了一杯美式咖啡。", "content_browsing"],
  ])("%s", (content, type) => {
    expect(inferLogType(content)).toBe(type);
  });
  it("null when unsure", () => {
    expect(inferLogType("用户在智能手环上记录了跑步数据：3公里。")).toBeNull();
    expect(inferLogType("Something happened.")).toBeNull();
  });
});

describe("language", () => {
  it("tells Chinese from English by the share of CJK characters", () => {
    const zh = new LanguageCounter();
    zh.add("用户在美团APP完成商品购买，产品：Latte一杯。");
    expect(zh.language()).toBe("zh");
    const en = new LanguageCounter();
    en.add("The user browsed an article on 知乎 about sleep.");
    expect(en.language()).toBe("en");
    expect(new LanguageCounter().language()).toBe("en");
  });
  it("flags text of the other language", () => {
    expect(isOtherLanguage("The user browsed 知乎.", "en")).toBe(true);
    expect(isOtherLanguage("The user browsed Zhihu.", "en")).toBe(false);
    expect(isOtherLanguage("用户打开了APP。", "zh")).toBe(false);
    expect(isOtherLanguage("The assistant replied in English here.", "zh")).toBe(true);
    expect(isOtherLanguage("OK", "zh")).toBe(false);
  });
});

import { startFakeOpenAI, type ChatRequest } from "@/test/fake-openai";
import { palResponder } from "@/test/h2memory-responder";
const text = (r: ChatRequest) => r.messages.map((m) => String(m.content)).join("\n");
const fake = await startFakeOpenAI();
fake.setResponder((req: ChatRequest) => {
  const t = text(req);
  if (t.includes("Reply with yes or no")) return /Mazda|never mentioned|3 bikes/.test(/Response: ([\s\S]*?)\n\n/.exec(t)?.[1] ?? "") ? "Yes." : "No";
  if (t.includes("car do I drive now")) return "You drive a Mazda 3 hatchback now.";
  if (t.includes("motorbike")) return "You never mentioned a motorbike.";
  if (t.includes("How many bikes")) return "You own 3 bikes.";
  return palResponder(req);
});
console.log(fake.baseURL);
setInterval(() => {}, 1 << 30);

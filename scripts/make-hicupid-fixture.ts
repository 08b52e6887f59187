/**
 * Writes the demo HiCUPID set in fixtures/hicupid/: three users, written by this project (no text from
 * the published data set), in the two layouts the importer reads:
 *   hf/{dialogue,qa}/<split>-00000-of-00001.parquet   the Hugging Face hub layout (nested struct
 *                                                      `metadata`, list `dialogue_id`, INT64 ids)
 *   jsonl/{dialogue,qa}/<split>.jsonl                 the same rows as JSON lines
 *
 * Shape (paper §3, Table 2): a user's history is persona, then profile, then schedule dialogues.
 * Users 0 and 1 are "seen" users: their dialogues are in the `train` split of the dialogue config and
 * their QA pairs are divided between `train` and `test_1`. User 2 is an "unseen" user: dialogues and
 * QA pairs are in `test_2`. There is no `test_1` dialogue file, as in the paper (Test Set 1 reuses
 * the train users' histories). Profile (multi-info) QA pairs list the profile dialogues first and the
 * related persona dialogue last, as the published code expects.
 *
 * Deterministic: the same files on every run. Run: npx tsx scripts/make-hicupid-fixture.ts
 */
import fs from "node:fs";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { SchemaElement } from "hyparquet";

type Persona = { relation: string; entity: string };
type Profile = { age: number; gender: string; personality: string; occupation: string; income_range: string };
type Schedule = { datetime: string; event: string };
type Turn = [user: string, assistant: string];
type Metadata = { persona: Persona | null; profile: Profile | null; schedule: Schedule | null };

type QaSpec = {
  split: "train" | "test_1" | "test_2";
  question: string;
  personalized: string;
  general: string;
} & ({ type: "persona"; persona: number } | { type: "profile"; persona: number } | { type: "schedule"; schedule: number });

type UserSpec = {
  id: number;
  dialogueSplit: "train" | "test_2";
  profile: Profile;
  personas: { persona: Persona; turns: Turn[] }[];
  profileDialogues: Turn[][];
  schedules: { schedule: Schedule; turns: Turn[] }[];
  qa: QaSpec[];
};

const USERS: UserSpec[] = [
  {
    id: 0,
    dialogueSplit: "train",
    profile: {
      age: 34,
      gender: "Female",
      personality: "Curious, organized, warm",
      occupation: "Veterinary nurse",
      income_range: "$40,000 - $55,000",
    },
    personas: [
      {
        persona: { relation: "likes", entity: "Trail running" },
        turns: [
          [
            "What should I look for in a pair of shoes for running on rocky paths?",
            "Look for a grippy outsole with deep lugs, a rock plate to protect your feet from sharp stones, and a snug heel so your foot does not slide on descents. A slightly lower drop can also make you more stable on uneven ground. Try them on late in the day, when your feet are a bit swollen, to get the fit right.",
          ],
          [
            "Good to know. Honestly, trail running is my favourite way to spend a Saturday morning, so I want something that lasts. How long do trail shoes usually hold up?",
            "Most trail shoes last somewhere between 500 and 800 kilometres, depending on your weight, your stride and how rough the terrain is. Flattened midsoles, worn lugs and new aches in your knees are signs it is time to replace them. Rotating two pairs can also extend the life of each.",
          ],
          [
            "Rotating two pairs sounds smart. Any tips for staying safe when I run alone in the hills?",
            "Tell someone your route and expected return time, and carry a charged phone with an offline map. Take a little more water and food than you think you need, plus a light layer in case the weather turns. Sticking to well-marked paths when you are alone keeps the risk of getting lost low.",
          ],
        ],
      },
      {
        persona: { relation: "owns", entity: "A golden retriever named Max" },
        turns: [
          [
            "How often should a big dog's nails be trimmed?",
            "For most large dogs, every three to four weeks works well, though dogs that walk a lot on pavement may need it less often. If you hear clicking on hard floors, the nails are probably too long. Trimming a little at a time helps you avoid the quick, which can bleed.",
          ],
          [
            "I have a golden retriever named Max and he hates the clippers. Is a grinder any better?",
            "Many dogs tolerate a grinder better because there is no sudden pinch, although some dislike the noise at first. Introduce it slowly: let Max sniff it, switch it on near him while giving treats, and then touch one nail at a time. Short, positive sessions usually work better than trying to do all four paws at once.",
          ],
          [
            "He also sheds like crazy in spring. What brush do you recommend for his coat?",
            "For a golden retriever's double coat, an undercoat rake and a slicker brush make a good pair. Use the rake to lift loose undercoat, then the slicker to smooth the outer coat and catch what is left. Brushing a few times a week during shedding season keeps the fur on your floor to a minimum.",
          ],
          [
            "Thanks, I will pick up a rake this weekend.",
            "Sounds like a plan. Brush outdoors if you can, and reward Max afterwards so grooming becomes something he looks forward to.",
          ],
        ],
      },
      {
        persona: { relation: "dislikes", entity: "Spicy food" },
        turns: [
          [
            "I'm going to a Thai restaurant with coworkers on Friday. What dishes are usually safe to order?",
            "Thai menus have plenty of mild options. Chicken satay with peanut sauce, pad see ew, massaman curry and fresh spring rolls are usually gentle. You can also ask for any dish to be made mild, which most kitchens are happy to do.",
          ],
          [
            "That helps a lot, because I really can't stand spicy food. Even a little chili ruins a meal for me. How do I ask without sounding fussy?",
            'A simple "Could you make this with no chili, please?" is completely normal, and staff hear it all the time. You might add that you are sensitive to heat so they take it seriously. Avoid dishes marked with chili icons, and keep some rice nearby in case something turns out hotter than expected.',
          ],
          [
            "Rice as a backup, got it. Is there any dessert I should try?",
            "Mango sticky rice is a classic: sweet coconut sticky rice with ripe mango, and no heat at all. Coconut ice cream is another refreshing choice after a meal.",
          ],
        ],
      },
      {
        persona: { relation: "is interested in", entity: "Watercolor painting" },
        turns: [
          [
            "What supplies does a complete beginner need to start painting with watercolors?",
            "A small set of student-grade pans, two or three round brushes in different sizes, and a pad of cold-press watercolor paper are enough to begin. Add two jars of water, one for rinsing and one for clean water, plus a paper towel for lifting color. You can upgrade single colors later once you know which ones you use most.",
          ],
          [
            "I've wanted to try watercolor painting for ages, and I finally have some free evenings. Is it better to learn from books or videos?",
            "Videos are great for seeing how much water is on the brush and how paint moves on the paper, which is hard to show in a book. Books are useful for structured exercises and color theory you can return to. Many beginners combine the two: watch a short technique video, then practise the matching exercise from a book.",
          ],
          [
            "What should my first exercises be?",
            "Start with flat washes, graded washes and wet-on-wet blooms to feel how water and pigment behave. Then paint simple shapes like leaves or pebbles using only two or three colors. Keep each exercise small so you can do many of them in one sitting.",
          ],
        ],
      },
      {
        persona: { relation: "does not enjoy", entity: "Horror movies" },
        turns: [
          [
            "My friends want to have a movie night. Can you suggest some crowd-pleasers?",
            "Adventure comedies, heist films and animated features tend to work well for groups because they are fun without being divisive. A well-loved classic that everyone half remembers can also spark good conversation. It helps to shortlist three options and let the group vote.",
          ],
          [
            "Last time they picked a horror movie and I spent the whole evening behind a cushion. I just don't enjoy horror at all. How can I steer the choice elsewhere?",
            "Offer to prepare the shortlist yourself, so the options are already ones you are comfortable with. You could also suggest a theme for the night, such as space adventures, which naturally leaves horror out. Being honest with friends usually works too; most people are happy to pick something everyone enjoys.",
          ],
          [
            "A theme night is a fun idea. What snacks go with a space theme?",
            'Star-shaped cookies, popcorn "asteroids" and a blue drink as "rocket fuel" are easy wins. A pizza with round toppings arranged like planets can be a playful centrepiece.',
          ],
        ],
      },
    ],
    profileDialogues: [
      [
        [
          "I'm 34 and I work as a veterinary nurse, which means a lot of lifting and long shifts. What stretches can help my lower back at the end of the day?",
          "Gentle moves like knee-to-chest stretches, cat-cow and a supported child's pose can ease tension after long shifts. Hold each stretch for 20 to 30 seconds and breathe slowly. Strengthening your core a couple of times a week will also make lifting animals easier on your back.",
        ],
      ],
      [
        [
          "As a woman earning around $40,000 to $55,000 a year, and someone who likes things well organized, how should I set up a simple monthly budget?",
          "A simple approach is the 50/30/20 split: about half of your take-home pay for needs, 30 percent for wants and 20 percent for savings and debt. Since you like organization, a spreadsheet with a tab per month and automatic transfers on payday will keep things tidy. Review it once a month and adjust categories that are consistently over or under.",
        ],
      ],
    ],
    schedules: [
      {
        schedule: { datetime: "2025-03-14 10:00", event: "Dentist appointment for a cleaning at Bright Smile Dental" },
        turns: [
          [
            "I have a dentist appointment for a cleaning at Bright Smile Dental on March 14, 2025 at 10:00. Can you remind me the day before?",
            "Of course. I've noted your dental cleaning at Bright Smile Dental on March 14, 2025 at 10:00, and I'll remind you on March 13.",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-04-02 18:30", event: "Book club meeting at Maria's house" },
        turns: [
          [
            "Please add a book club meeting at Maria's house to my calendar for April 2, 2025 at 18:30.",
            "Done: the book club at Maria's house on April 2, 2025 at 18:30 is in your calendar.",
          ],
          [
            "Could you also remind me to finish the last three chapters before then?",
            "Sure. I'll remind you on March 30 to finish the last three chapters so you're ready for the meeting.",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-05-20 09:00", event: "Max's annual checkup at Riverside Vet Clinic" },
        turns: [
          [
            "Max has his annual checkup at Riverside Vet Clinic on May 20, 2025 at 09:00. Can you put it in my calendar?",
            "Added: Max's annual checkup at Riverside Vet Clinic on May 20, 2025 at 09:00. Would you like a reminder the evening before?",
          ],
        ],
      },
    ],
    qa: [
      {
        split: "train",
        type: "persona",
        persona: 1,
        question: "What are some good activities to keep a dog busy on a rainy day?",
        personalized:
          "Since Max is a golden retriever who loves to work for treats, try indoor fetch down a hallway, hiding kibble in a snuffle mat, or short training sessions to teach him a new trick. Goldens enjoy carrying things, so asking him to bring a toy by name can tire him out nicely.",
        general:
          "Puzzle feeders, hide-and-seek with treats, short training sessions and gentle tug games are good ways to keep a dog busy indoors. Rotating toys keeps them interesting.",
      },
      {
        split: "test_1",
        type: "persona",
        persona: 0,
        question: "Any ideas for a fun way to spend my Saturday morning?",
        personalized:
          "Since you love trail running, how about exploring a trail you haven't tried yet, maybe one with a scenic viewpoint? You could pack a small breakfast to enjoy at the top.",
        general: "You could visit a farmers' market, try a new café, go for a walk in a park or catch up on a hobby you enjoy.",
      },
      {
        split: "train",
        type: "profile",
        persona: 3,
        question: "I want a relaxing hobby for my evenings that won't cost too much. What would you suggest?",
        personalized:
          "With long, physical shifts as a veterinary nurse and a budget in the $40,000 to $55,000 range, a low-cost, calming hobby makes sense. Since you've been wanting to try watercolor painting, a small student-grade set and a pad of paper cost very little, and your organized nature will help you keep a simple practice routine.",
        general:
          "Reading, journaling, drawing, knitting or gentle yoga are relaxing and inexpensive hobbies. Choose one that fits the time and space you have.",
      },
      {
        split: "train",
        type: "schedule",
        schedule: 0,
        question: "Can you add a haircut appointment on March 14, 2025 at 10:00 to my calendar?",
        personalized:
          "You already have a dental cleaning at Bright Smile Dental on March 14, 2025 at 10:00. Would you like me to replace it with the haircut, or should we find another time for one of them?",
        general: "Sure, I've added a haircut appointment on March 14, 2025 at 10:00 to your calendar.",
      },
      {
        split: "test_1",
        type: "schedule",
        schedule: 2,
        question: "Please remind me about a team meeting on May 20, 2025 at 09:00.",
        personalized:
          "Heads-up: May 20, 2025 at 09:00 is when Max has his annual checkup at Riverside Vet Clinic. Do you want to overwrite that entry with the team meeting, or keep the vet visit and move the meeting?",
        general: "Okay, I'll remind you about the team meeting on May 20, 2025 at 09:00.",
      },
    ],
  },
  {
    id: 1,
    dialogueSplit: "train",
    profile: {
      age: 52,
      gender: "Male",
      personality: "Calm, analytical, patient",
      occupation: "High school chemistry teacher",
      income_range: "$60,000 - $75,000",
    },
    personas: [
      {
        persona: { relation: "likes", entity: "Jazz music" },
        turns: [
          [
            "What's a good way to get better sound out of an old record player?",
            "Start by checking the stylus, since a worn needle dulls the sound and can damage records. Make sure the turntable sits on a level, stable surface away from the speakers to reduce vibration. Cleaning records with a carbon-fibre brush before each play also makes a noticeable difference.",
          ],
          [
            "Most of my records are jazz, mostly pressings from the sixties, so I want to treat them well. Should I use a cleaning machine?",
            "For a collection you care about, a cleaning machine is worth it. Vacuum machines and ultrasonic cleaners both remove grime from deep in the grooves much better than a brush alone. Store the clean records in anti-static inner sleeves so they stay that way.",
          ],
          [
            "Any suggestions for where to find more albums like those?",
            "Local record shops and record fairs are great places to dig for original and reissued pressings. Online marketplaces let you check condition grades before buying. Many labels also run reissue series that are carefully mastered and cheaper than originals.",
          ],
        ],
      },
      {
        persona: { relation: "dislikes", entity: "Crowded beaches" },
        turns: [
          [
            "We're planning a summer break by the sea. How do I pick a destination?",
            "Think about what you want most: swimming, walking, food or quiet. Check the average water temperature, how easy it is to get there, and whether there are places to stay within walking distance of the shore. Travelling just before or after the school holidays can change the experience a lot.",
          ],
          [
            "Quiet matters most. I really dislike crowded beaches; packed sand and loud music make me want to leave right away. Where should I look?",
            "Look for smaller coastal villages, islands without big resorts, or beaches that need a short hike to reach, since these tend to stay calm. Nature reserves often limit facilities, which keeps crowds down. Going early in the morning or late in the afternoon also helps at any beach.",
          ],
          [
            "A short hike is fine with me. What should I pack for a beach that has no facilities?",
            "Bring plenty of water, snacks, sun protection, a shade umbrella or tarp, and a bag to carry your rubbish out. A small first-aid kit and sturdy sandals for the path are useful too.",
          ],
        ],
      },
      {
        persona: { relation: "likes", entity: "Sourdough baking" },
        turns: [
          [
            "Why does my bread come out so dense in the middle?",
            "A dense crumb usually means under-proofing, a weak starter or not enough gluten development. Try giving the dough more time to rise, folding it a bit longer, and make sure your oven is fully preheated. An oven thermometer can reveal if the temperature is lower than the dial says.",
          ],
          [
            "I bake sourdough every weekend with a starter I've kept alive for three years, so I suspect the proofing. How can I tell when it's ready?",
            "Use the poke test: press a floured finger about a centimetre into the dough. If the dent springs back slowly and leaves a small mark, it is ready; if it springs back instantly it needs more time, and if it does not spring back at all it may be over-proofed. A rise of about 50 to 75 percent during bulk fermentation is another good sign.",
          ],
          [
            "And does the kitchen temperature matter much?",
            "A lot. Sourdough ferments much faster in a warm kitchen and slower in a cool one, so the same recipe can need very different times. Many bakers aim for a dough temperature around 24 to 26 °C and adjust the water temperature to get there.",
          ],
          [
            "I'll try warmer water next weekend.",
            "Good plan. Note the water and room temperature each time, and you'll quickly find what works in your kitchen.",
          ],
        ],
      },
      {
        persona: { relation: "is learning", entity: "Spanish" },
        turns: [
          [
            "How many new words a day is realistic to memorize?",
            "For most adults, 10 to 20 new words a day is sustainable if you review them regularly. Spaced-repetition apps help by showing words right before you are likely to forget them. Learning words in short phrases rather than alone makes them easier to use.",
          ],
          [
            "I'm learning Spanish because I want to spend a summer in Seville, so I'd like to speak confidently within a year. What else should I do besides vocabulary?",
            "Listening every day is key: podcasts for learners, Spanish radio or series with subtitles all help. Try to speak early, even with mistakes, by booking conversation sessions or joining a local language exchange. Learning the most common verbs in the present, past and future tenses will unlock a lot of everyday conversation.",
          ],
          [
            "Is there a good way to practise speaking on my own?",
            "Shadowing works well: play a short audio clip and repeat it right after the speaker, copying rhythm and intonation. You can also describe your day out loud, or record yourself and compare with native audio.",
          ],
        ],
      },
      {
        persona: { relation: "supports", entity: "Public libraries" },
        turns: [
          [
            "What's the best way to get a community group started?",
            "Start with a clear purpose and a small core of people who care about it. Pick a regular time and a free or cheap place to meet, and use a simple mailing list or group chat to keep in touch. Early events that are easy to join help the group grow.",
          ],
          [
            "I want to start a friends-of-the-library group. I'm a strong supporter of public libraries and ours just had its hours cut. What could such a group do?",
            "Friends groups often run book sales, raise money for programmes, recruit volunteers and speak up at council meetings when budgets are discussed. Collecting stories from people who rely on the library can make a strong case to decision makers. Partnering with schools and local businesses broadens support.",
          ],
          [
            "Speaking at the council meeting sounds important. How do I prepare?",
            "Find out the rules for public comment and the time limit, usually two or three minutes. Prepare a short statement with one or two concrete facts, such as visitor numbers, and one personal story. Bring a few supporters; a full room shows the council that people care.",
          ],
        ],
      },
    ],
    profileDialogues: [
      [
        [
          "I'm a 52-year-old man and my doctor says I should be more active. What kind of exercise routine is sensible at my age?",
          "A good routine mixes about 150 minutes of moderate cardio per week, such as brisk walking or cycling, with two sessions of strength training. Add some balance and mobility work, like yoga or simple single-leg exercises. Start gradually and build up over several weeks to avoid injury.",
        ],
      ],
      [
        [
          "I teach high school chemistry and earn between $60,000 and $75,000. I'm a patient, analytical sort of person. How should I think about saving for retirement?",
          "Start by finding out what your teacher pension will provide, then estimate the gap to the income you want in retirement. Regular contributions to a tax-advantaged account, invested in low-cost index funds, suit a patient, long-term approach. Since you enjoy analysis, a simple spreadsheet projecting your savings at a few growth rates can make the plan concrete.",
        ],
      ],
    ],
    schedules: [
      {
        schedule: { datetime: "2025-02-08 14:00", event: "Parent-teacher conferences at Westfield High" },
        turns: [
          [
            "I have parent-teacher conferences at Westfield High on February 8, 2025 at 14:00. Please add them to my calendar.",
            "Added: parent-teacher conferences at Westfield High on February 8, 2025 at 14:00. Do you want a reminder that morning?",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-03-01 11:00", event: "Lunch with his brother Daniel at the harbour café" },
        turns: [
          [
            "I'm meeting my brother Daniel for lunch at the harbour café on March 1, 2025 at 11:00. Can you remind me?",
            "Sure. I'll remind you about lunch with Daniel at the harbour café on March 1, 2025 at 11:00.",
          ],
          [
            "Remind me an hour before, please; parking there is tricky.",
            "Got it. I'll send the reminder at 10:00 so you have time to find parking.",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-06-12 16:00", event: "Car service at Northside Garage" },
        turns: [
          [
            "My car is booked for a service at Northside Garage on June 12, 2025 at 16:00. Please note it.",
            "Noted: car service at Northside Garage on June 12, 2025 at 16:00. I'll remind you the day before.",
          ],
        ],
      },
    ],
    qa: [
      {
        split: "train",
        type: "persona",
        persona: 0,
        question: "Can you recommend something to listen to while I grade papers tonight?",
        personalized:
          "Since you're a jazz fan with a soft spot for records from the sixties, put on a mellow late-night jazz album; it keeps you company without pulling your attention from the grading.",
        general: "Instrumental music works well for focused work: try classical piano, lo-fi beats or ambient playlists at a low volume.",
      },
      {
        split: "train",
        type: "schedule",
        schedule: 1,
        question: "Please schedule a call with the insurance company on March 1, 2025 at 11:00.",
        personalized:
          "You're already meeting your brother Daniel for lunch at the harbour café on March 1, 2025 at 11:00. Should I replace the lunch with the insurance call, or would you like to pick another time for the call?",
        general: "Done. The call with the insurance company is scheduled for March 1, 2025 at 11:00.",
      },
      {
        split: "test_1",
        type: "profile",
        persona: 1,
        question: "Where could I go for a restful week off this summer?",
        personalized:
          "As a 52-year-old teacher with the summer free and a mid-range budget, a week in a small coastal village fits well, and since you dislike crowded beaches, pick one with coves reached by a short walk, where it stays quiet. Your calm, analytical side might also enjoy planning early-morning swims before anyone else arrives.",
        general:
          "Popular choices for a restful week include a beach resort, a lakeside cabin, a countryside guesthouse or a spa hotel. Pick based on your budget and how far you want to travel.",
      },
      {
        split: "test_1",
        type: "persona",
        persona: 2,
        question: "What should I do with my free Sunday afternoon?",
        personalized:
          "How about a baking project? Since you bake sourdough every weekend, you could experiment with a new loaf, like a seeded rye or an olive sourdough, using your three-year-old starter.",
        general: "You could go for a walk, read a book, visit a museum, cook something new or meet up with friends.",
      },
      {
        split: "train",
        type: "schedule",
        schedule: 2,
        question: "Set a reminder for my dentist appointment on June 12, 2025 at 16:00.",
        personalized:
          "Just so you know, your car is booked for a service at Northside Garage on June 12, 2025 at 16:00. Do you want me to overwrite that with the dentist appointment, or keep both and move one?",
        general: "Reminder set for your dentist appointment on June 12, 2025 at 16:00.",
      },
    ],
  },
  {
    id: 2,
    dialogueSplit: "test_2",
    profile: {
      age: 27,
      gender: "Non-binary",
      personality: "Outgoing, spontaneous, creative",
      occupation: "Freelance graphic designer",
      income_range: "$30,000 - $45,000",
    },
    personas: [
      {
        persona: { relation: "likes", entity: "Board games" },
        turns: [
          [
            "What makes a game night fun for people who don't know each other well?",
            "Pick games with simple rules and lots of interaction, so nobody has to study a rulebook. Cooperative or party games help people laugh together quickly. Keep snacks easy to eat with one hand and plan short games so people can rotate.",
          ],
          [
            "I'm a huge board game fan and own way too many, so choosing is the hard part. Which kinds work best for six players?",
            "Social deduction games, drawing-and-guessing games and word-association games shine with six. They play fast, scale well and get everyone talking. Save heavier strategy games for a smaller group later in the evening.",
          ],
          [
            "Should I explain the rules before people arrive or as we play?",
            "Teach as you play whenever possible: a two-minute overview of the goal, then learn the details during a practice round. People remember rules better when they use them right away.",
          ],
        ],
      },
      {
        persona: { relation: "dislikes", entity: "Early mornings" },
        turns: [
          [
            "How can I be more productive without burning out?",
            "Work in focused blocks with short breaks, and plan your hardest task for when your energy is highest. Set a clear stopping time each day, and protect sleep, meals and movement. Reviewing your week every Friday helps you spot what is draining you.",
          ],
          [
            "Every productivity article says to wake up at 5 a.m., but I really hate early mornings; I'm groggy and useless before nine. Is that a problem?",
            "Not at all. People have different chronotypes, and many do their best work later in the day. What matters is a consistent sleep schedule and matching your demanding tasks to your peak hours. If you're sharpest in the late morning or evening, plan around that.",
          ],
          [
            "So I could do my design work in the evening and admin in the late morning?",
            "Exactly. Put creative, deep work in your strongest hours and lighter admin when you're still warming up. Just keep a firm end time so late work doesn't push your bedtime later and later.",
          ],
        ],
      },
      {
        persona: { relation: "likes", entity: "Indie rock" },
        turns: [
          [
            "How can I find new music that isn't just what's on the charts?",
            "Try independent radio stations, music blogs and playlists curated by small labels. Following the artists you like often leads to the bands they tour with. Local venues' event calendars are also a good way to hear new acts live.",
          ],
          [
            "I mostly listen to indie rock, scrappy guitars and odd lyrics, and I love small club gigs. Are there ways to hear about shows early?",
            "Sign up to newsletters from your favourite venues and promoters, since they often announce shows to subscribers first. Ticketing apps let you follow artists and get alerts when they add dates near you. Record shop notice boards and local music forums are good for tiny gigs that never get advertised widely.",
          ],
          [
            "Nice. Any tips for enjoying a gig on my own?",
            "Arrive early to get a good spot and chat with people near the stage; fans of small bands are usually friendly. Take earplugs, and catch the support act; you might find your next favourite band.",
          ],
        ],
      },
      {
        persona: { relation: "supports", entity: "Cycling infrastructure" },
        turns: [
          [
            "Is commuting by bike in the city actually faster than taking the bus?",
            "For trips under about eight kilometres, cycling is often as fast as or faster than the bus, because you avoid waiting and traffic queues. It also gives you predictable travel times. Safety and route quality make a big difference, so check for bike lanes along the way.",
          ],
          [
            "I ride everywhere and I'm all for more protected bike lanes; I even went to a council meeting about a new one. What makes a bike lane really good?",
            "Physical separation from cars, enough width to overtake, smooth surfaces and safe intersection designs are the key features. Connected networks matter as much as individual lanes, because one gap can make a whole route feel unsafe. Good lighting and clear signs help too.",
          ],
          [
            "What gear should I keep on the bike for city riding?",
            "Front and rear lights, a good lock, a bell and mudguards cover the basics. A small repair kit with tyre levers, a spare tube and a mini pump can save you a long walk.",
          ],
        ],
      },
      {
        persona: { relation: "grows", entity: "Herbs on a balcony" },
        turns: [
          [
            "Why do my basil plants keep getting leggy?",
            "Leggy basil usually means it isn't getting enough light or isn't being pinched back. Give it at least six hours of sun and pinch off the top pair of leaves just above a leaf node regularly. Removing flower buds keeps the plant bushy.",
          ],
          [
            "I grow a bunch of herbs on my balcony, basil, mint, thyme and chives, and the balcony faces east. Is that enough sun?",
            "An east-facing balcony gets gentle morning sun, which suits mint, chives and parsley well. Basil and thyme love heat and may grow more slowly, so place them in the sunniest corner. Turning the pots every week helps them grow evenly.",
          ],
          [
            "Should mint be in its own pot?",
            "Yes. Mint spreads quickly through its roots and will crowd out its neighbours, so give it its own container.",
          ],
          [
            "Makes sense, I'll repot it this weekend.",
            "Great. Choose a pot at least 20 centimetres wide with drainage holes, and water it well after repotting.",
          ],
        ],
      },
    ],
    profileDialogues: [
      [
        [
          "I'm 27 and work as a freelance graphic designer. How should I handle taxes when my income comes from lots of different clients?",
          "Keep a separate bank account for business income and set aside a fixed share of every payment, often 25 to 30 percent, for taxes. Track invoices and expenses in one place, and keep receipts for equipment, software and workspace costs. Paying estimated taxes quarterly avoids a big bill and penalties at the end of the year.",
        ],
      ],
      [
        [
          "I'm non-binary, pretty outgoing and spontaneous, and I make about $30,000 to $45,000 a year. How can I make friends in a new city without spending much?",
          "Free or low-cost options include meetup groups, community classes at libraries, volunteering and pick-up sports. Since you're outgoing, try hosting something small yourself, like a picnic or a game night. LGBTQ+ community centres often run social events that are welcoming and inexpensive.",
        ],
      ],
    ],
    schedules: [
      {
        schedule: { datetime: "2025-03-22 19:00", event: "Hosting a board game night for friends at home" },
        turns: [
          [
            "I'm hosting a board game night at my place on March 22, 2025 at 19:00. Could you add it to my calendar?",
            "Added: board game night at your place on March 22, 2025 at 19:00. Would you like a reminder that afternoon to set up?",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-04-10 08:30", event: "Pitch meeting with a new client, Lumen Coffee" },
        turns: [
          [
            "I have a pitch meeting with a new client, Lumen Coffee, on April 10, 2025 at 08:30. Please remind me.",
            "I've noted your pitch meeting with Lumen Coffee on April 10, 2025 at 08:30 and will remind you.",
          ],
          [
            "Make it the night before, that's way too early for me to remember in the morning.",
            "Understood. I'll remind you on the evening of April 9 so you can prepare the night before.",
          ],
        ],
      },
      {
        schedule: { datetime: "2025-07-05 12:00", event: "Cousin Leah's wedding in Portland" },
        turns: [
          [
            "My cousin Leah's wedding in Portland is on July 5, 2025 at 12:00. Please put it in my calendar.",
            "Done: Leah's wedding in Portland on July 5, 2025 at 12:00 is in your calendar. Would you like a reminder a week before to arrange travel?",
          ],
        ],
      },
    ],
    qa: [
      {
        split: "test_2",
        type: "persona",
        persona: 4,
        question: "What could I cook tonight with whatever fresh ingredients I have on hand?",
        personalized:
          "Since you grow basil, mint, thyme and chives on your balcony, make a quick herb pasta: toss spaghetti with olive oil, garlic, torn basil and chives, and serve a mint-and-yogurt salad on the side.",
        general: "A stir-fry, an omelette, a simple pasta or a big salad are quick ways to use up fresh ingredients.",
      },
      {
        split: "test_2",
        type: "persona",
        persona: 2,
        question: "Any suggestions for something fun to do on Friday night?",
        personalized:
          "Since you love indie rock and small club gigs, check your favourite venues' calendars for a local band this Friday; small shows are cheap and you might discover someone new.",
        general: "You could see a movie, try a new restaurant, go bowling or host a relaxed dinner with friends.",
      },
      {
        split: "test_2",
        type: "profile",
        persona: 3,
        question: "What's a good way to get to client meetings across town?",
        personalized:
          "As a freelancer on a $30,000 to $45,000 income, keeping travel costs low matters, and since you already ride everywhere and back protected bike lanes, cycling is a great fit: plan routes along the bike network and keep a change of shirt in your bag. Your spontaneous streak also means you won't be stuck waiting for a bus.",
        general:
          "Public transport, ride-sharing, driving or cycling are all options; compare travel time, cost and parking for your route.",
      },
      {
        split: "test_2",
        type: "schedule",
        schedule: 0,
        question: "Can you add a dinner with my old roommate on March 22, 2025 at 19:00?",
        personalized:
          "You're already hosting a board game night for friends at your place on March 22, 2025 at 19:00. Do you want me to replace it with the dinner, or should we find another time?",
        general: "Sure, dinner with your old roommate on March 22, 2025 at 19:00 has been added to your calendar.",
      },
      {
        split: "test_2",
        type: "schedule",
        schedule: 1,
        question: "Please remind me about a dentist check-up on April 10, 2025 at 08:30.",
        personalized:
          "April 10, 2025 at 08:30 is already taken by your pitch meeting with Lumen Coffee. Should I overwrite it with the dentist check-up, or would you like to reschedule one of them?",
        general: "Okay, I'll remind you about your dentist check-up on April 10, 2025 at 08:30.",
      },
    ],
  },
];

const SPLITS = ["train", "test_1", "test_2"] as const;

type DialogueRow = { user_id: number; dialogue_id: number; type: string; metadata: Metadata; user: string; assistant: string };
type QaRow = {
  user_id: number;
  dialogue_id: number[];
  type: string;
  metadata: Metadata;
  question: string;
  personalized_answer: string;
  general_answer: string;
};

/** Dialogue ids are per user and follow the history order: persona 0..4, profile 5..6, schedule 7..9. */
function dialogueIds(u: UserSpec) {
  const persona = u.personas.map((_, i) => i);
  const profile = u.profileDialogues.map((_, i) => persona.length + i);
  const schedule = u.schedules.map((_, i) => persona.length + profile.length + i);
  return { persona, profile, schedule };
}

function buildRows() {
  const dialogue: Record<string, DialogueRow[]> = {};
  const qa: Record<string, QaRow[]> = {};
  for (const u of USERS) {
    const ids = dialogueIds(u);
    const rows = (dialogue[u.dialogueSplit] ??= []);
    const push = (id: number, type: string, metadata: Metadata, turns: Turn[]) => {
      for (const [user, assistant] of turns) rows.push({ user_id: u.id, dialogue_id: id, type, metadata, user, assistant });
    };
    u.personas.forEach((p, i) => push(ids.persona[i], "persona", { persona: p.persona, profile: null, schedule: null }, p.turns));
    u.profileDialogues.forEach((turns, i) => push(ids.profile[i], "profile", { persona: null, profile: u.profile, schedule: null }, turns));
    u.schedules.forEach((s, i) => push(ids.schedule[i], "schedule", { persona: null, profile: null, schedule: s.schedule }, s.turns));

    for (const q of u.qa) {
      const base = { user_id: u.id, type: q.type, question: q.question, personalized_answer: q.personalized, general_answer: q.general };
      let row: QaRow;
      if (q.type === "persona") {
        row = {
          ...base,
          dialogue_id: [ids.persona[q.persona]],
          metadata: { persona: u.personas[q.persona].persona, profile: null, schedule: null },
        };
      } else if (q.type === "profile") {
        // Multi-info: the profile dialogues first, then the related persona dialogue.
        row = {
          ...base,
          dialogue_id: [...ids.profile, ids.persona[q.persona]],
          metadata: { persona: u.personas[q.persona].persona, profile: u.profile, schedule: null },
        };
      } else {
        row = {
          ...base,
          dialogue_id: [ids.schedule[q.schedule]],
          metadata: { persona: null, profile: null, schedule: u.schedules[q.schedule].schedule },
        };
      }
      (qa[q.split] ??= []).push(row);
    }
  }
  return { dialogue, qa };
}

// Parquet schemas as the hub's Arrow writer lays them out: INT64 ids, a 3-level LIST for the
// relevant dialogue ids, and `metadata` as a struct of optional structs.
const str = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
const int64 = (name: string): SchemaElement => ({ name, type: "INT64", repetition_type: "OPTIONAL" });
const METADATA_SCHEMA: SchemaElement[] = [
  { name: "metadata", repetition_type: "OPTIONAL", num_children: 3 },
  { name: "persona", repetition_type: "OPTIONAL", num_children: 2 },
  str("relation"),
  str("entity"),
  { name: "profile", repetition_type: "OPTIONAL", num_children: 5 },
  int64("age"),
  str("gender"),
  str("personality"),
  str("occupation"),
  str("income_range"),
  { name: "schedule", repetition_type: "OPTIONAL", num_children: 2 },
  str("datetime"),
  str("event"),
];
const DIALOGUE_SCHEMA: SchemaElement[] = [
  { name: "schema", num_children: 6 },
  int64("user_id"),
  int64("dialogue_id"),
  str("type"),
  ...METADATA_SCHEMA,
  str("user"),
  str("assistant"),
];
const QA_SCHEMA: SchemaElement[] = [
  { name: "schema", num_children: 7 },
  int64("user_id"),
  { name: "dialogue_id", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  int64("element"),
  str("type"),
  ...METADATA_SCHEMA,
  str("question"),
  str("personalized_answer"),
  str("general_answer"),
];

/** INT64 columns take bigints, also inside structs and lists. */
function toInt64(value: unknown): unknown {
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(toInt64);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toInt64(v)]));
  return value;
}

function writeParquet(file: string, schema: SchemaElement[], rows: Record<string, unknown>[]) {
  const buf = parquetWriteBuffer({
    schema,
    columnData: topLevelNames(schema).map((name) => ({ name, data: rows.map((r) => toInt64(r[name])) })),
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(buf));
}

/** Names of the root's direct children in a flattened parquet schema. */
function topLevelNames(schema: SchemaElement[]): string[] {
  const names: string[] = [];
  let i = 1;
  const skip = (at: number): number => {
    let next = at + 1;
    for (let c = 0; c < (schema[at].num_children ?? 0); c++) next = skip(next);
    return next;
  };
  while (i < schema.length) {
    names.push(schema[i].name);
    i = skip(i);
  }
  return names;
}

/** JSON lines with the keys in the same order as the parquet columns. */
function writeJsonl(file: string, schema: SchemaElement[], rows: Record<string, unknown>[]) {
  const names = topLevelNames(schema);
  const lines = rows.map((r) => JSON.stringify(Object.fromEntries(names.map((n) => [n, r[n]]))));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

function main() {
  const root = path.join(import.meta.dirname, "..", "fixtures", "hicupid");
  fs.rmSync(root, { recursive: true, force: true });
  const { dialogue, qa } = buildRows();
  for (const split of SPLITS) {
    if (dialogue[split]) {
      writeParquet(path.join(root, "hf", "dialogue", `${split}-00000-of-00001.parquet`), DIALOGUE_SCHEMA, dialogue[split]);
      writeJsonl(path.join(root, "jsonl", "dialogue", `${split}.jsonl`), DIALOGUE_SCHEMA, dialogue[split]);
    }
    if (qa[split]) {
      writeParquet(path.join(root, "hf", "qa", `${split}-00000-of-00001.parquet`), QA_SCHEMA, qa[split]);
      writeJsonl(path.join(root, "jsonl", "qa", `${split}.jsonl`), QA_SCHEMA, qa[split]);
    }
  }
  const turns = Object.values(dialogue).flat();
  const dialogues = new Set(turns.map((t) => `${t.user_id}/${t.dialogue_id}`)).size;
  const qaCount = Object.values(qa).flat().length;
  console.log(`fixtures/hicupid: ${USERS.length} users, ${dialogues} dialogues, ${turns.length} turns, ${qaCount} qa`);
}

main();

/**
 * FOR TESTS: short stories with every quote's speaker written beside it, for the offline speaker
 * attribution (server/cast/attribution.ts). A story's `lines` list, in text order, each quoted
 * span exactly as the text has it (marks included) and the id of who speaks it (NARRATOR for the
 * narrator's own voice, and for a line nobody in the text can be given). Paragraphs are parted
 * by blank lines, as the ingest joins them.
 */
import { NARRATOR } from '../cast/types';

export type CastStory = {
  name: string;
  /** One text per chapter. */
  chapters: string[];
  /** Per chapter, every quoted span and its speaker, in text order. */
  lines: [quote: string, speaker: string][][];
};

const paragraphs = (...ps: string[]): string => ps.join('\n\n');

export const CAST_STORIES: CastStory[] = [
  {
    name: 'explicit tags on either side',
    chapters: [
      paragraphs(
        'Marta Lind unlocked the shop at seven. Tobias was already waiting on the step.',
        '"You\'re late," said Tobias.',
        '"I\'m never late," Marta said. "The clock is early."',
        '"Is that so?" asked Tobias.',
        'Marta replied, "Every single morning."',
        '"Then fix the clock," Tobias muttered.',
      ),
    ],
    lines: [
      [
        ['"You\'re late,"', 'tobias'],
        ['"I\'m never late,"', 'marta-lind'],
        ['"The clock is early."', 'marta-lind'],
        ['"Is that so?"', 'tobias'],
        ['"Every single morning."', 'marta-lind'],
        ['"Then fix the clock,"', 'tobias'],
      ],
    ],
  },
  {
    name: 'pronoun tags',
    chapters: [
      paragraphs(
        'Elena found her brother in the barn. Paul was mending a harness, and he did not look up.',
        '“The roof leaks again,” she said.',
        '“I know,” he muttered. “I heard it all night.”',
        'Elena sat on a bale of hay. She pulled her coat tighter.',
        '“Will you fix it?” she asked.',
        '“Tomorrow,” he replied.',
      ),
    ],
    lines: [
      [
        ['“The roof leaks again,”', 'elena'],
        ['“I know,”', 'paul'],
        ['“I heard it all night.”', 'paul'],
        ['“Will you fix it?”', 'elena'],
        ['“Tomorrow,”', 'paul'],
      ],
    ],
  },
  {
    name: 'a two-person exchange without tags',
    chapters: [
      paragraphs(
        'Ruth met Daniel at the station. She had not seen him for ten years.',
        '"Daniel," she said.',
        '"Ruth."',
        '"You look older."',
        '"So do you."',
        '"Shall we walk?"',
        '"If you like."',
      ),
    ],
    lines: [
      [
        ['"Daniel,"', 'ruth'],
        ['"Ruth."', 'daniel'],
        ['"You look older."', 'ruth'],
        ['"So do you."', 'daniel'],
        ['"Shall we walk?"', 'ruth'],
        ['"If you like."', 'daniel'],
      ],
    ],
  },
  {
    name: 'broken quotes and a speech over two paragraphs',
    chapters: [
      paragraphs(
        'The lamp had gone out. Marta struck a match.',
        '"Come here," said Marta, "and look at this."',
        'Jonas bent over the map. "That\'s the old road," he said, "the one the river took."',
        '"It still goes on," Marta said, "past the mill and over the hill, where nobody has walked for years, and I mean to find it.',
        '"We leave at dawn."',
        'Jonas folded the map without a word.',
      ),
    ],
    lines: [
      [
        ['"Come here,"', 'marta'],
        ['"and look at this."', 'marta'],
        ['"That\'s the old road,"', 'jonas'],
        ['"the one the river took."', 'jonas'],
        ['"It still goes on,"', 'marta'],
        [
          '"past the mill and over the hill, where nobody has walked for years, and I mean to find it.\n\n"We leave at dawn."',
          'marta',
        ],
      ],
    ],
  },
  {
    name: 'British single quotes among apostrophes (curly)',
    chapters: [
      paragraphs(
        'Mrs Pike set the kettle on. ‘You’ll want tea,’ she said. ‘Everyone does after the ferry.’',
        'Tom shook his head. ‘Not for me, thanks. I’ve had James’ flask all the way over.’',
        '‘Rock ’n’ roll on the ferry again?’ asked Mrs Pike.',
        '‘All through the ’90s, they said, and they haven’t stopped,’ Tom replied.',
      ),
    ],
    lines: [
      [
        ['‘You’ll want tea,’', 'mrs-pike'],
        ['‘Everyone does after the ferry.’', 'mrs-pike'],
        ['‘Not for me, thanks. I’ve had James’ flask all the way over.’', 'tom'],
        ['‘Rock ’n’ roll on the ferry again?’', 'mrs-pike'],
        ['‘All through the ’90s, they said, and they haven’t stopped,’', 'tom'],
      ],
    ],
  },
  {
    name: 'British single quotes among apostrophes (straight)',
    chapters: [
      paragraphs(
        "The boys' boots stood by the door. Mrs Pike set the kettle on. 'You'll want tea,' she said.",
        "Tom shook his head. 'Not for me. I've had James' flask all the way over.'",
        "'Rock 'n' roll on the ferry again?' asked Mrs Pike.",
        "'All through the '90s,' Tom said, 'and it's the same song.'",
      ),
    ],
    lines: [
      [
        ["'You'll want tea,'", 'mrs-pike'],
        ["'Not for me. I've had James' flask all the way over.'", 'tom'],
        ["'Rock 'n' roll on the ferry again?'", 'mrs-pike'],
        ["'All through the '90s,'", 'tom'],
        ["'and it's the same song.'", 'tom'],
      ],
    ],
  },
  {
    name: 'a first-person narrator',
    chapters: [
      paragraphs(
        'I found Grace at the end of the pier, where she always went when the boats were out.',
        '"You shouldn\'t be here," I said.',
        '"Neither should you," she answered.',
        'I sat down beside her. "Fair enough."',
        '"Did you bring the letter?" Grace asked.',
        '"I burned it," said I.',
      ),
    ],
    lines: [
      [
        ['"You shouldn\'t be here,"', NARRATOR],
        ['"Neither should you,"', 'grace'],
        ['"Fair enough."', NARRATOR],
        ['"Did you bring the letter?"', 'grace'],
        ['"I burned it,"', NARRATOR],
      ],
    ],
  },
  {
    name: 'one man, three names (Captain Harris, Harris, the captain)',
    chapters: [
      paragraphs(
        'Captain Harris stood on the bridge with his first mate, a quiet woman named Ada Vance.',
        '"Storm\'s coming," said the captain.',
        '"How long?" Ada asked.',
        '"An hour, maybe less," Harris said. He lowered the glass.',
        '"The men won\'t like it," said Ada Vance.',
        '"The men will do as they\'re told," the captain said.',
      ),
    ],
    lines: [
      [
        ['"Storm\'s coming,"', 'captain-harris'],
        ['"How long?"', 'ada-vance'],
        ['"An hour, maybe less,"', 'captain-harris'],
        ['"The men won\'t like it,"', 'ada-vance'],
        ['"The men will do as they\'re told,"', 'captain-harris'],
      ],
    ],
  },
  {
    name: 'vocatives name the one spoken to',
    chapters: [
      paragraphs(
        'Lena and Tobias waited by the gate while the rain came down.',
        '"Tobias, listen to me," Lena said.',
        '"I\'m listening."',
        '"Then stop looking at the road."',
        '"Lena, the road is where he\'ll come from."',
        '"He won\'t come, Tobias."',
      ),
    ],
    lines: [
      [
        ['"Tobias, listen to me,"', 'lena'],
        ['"I\'m listening."', 'tobias'],
        ['"Then stop looking at the road."', 'lena'],
        ['"Lena, the road is where he\'ll come from."', 'tobias'],
        ['"He won\'t come, Tobias."', 'lena'],
      ],
    ],
  },
  {
    name: 'a scene break forgets who was there',
    chapters: [
      paragraphs(
        'Marta and Tobias argued in the kitchen until the soup went cold.',
        '"You never listen," said Marta.',
        '"I always listen," said Tobias.',
        '* * *',
        'Morning came grey and wet over the roofs.',
        '"Is anyone awake?" she called.',
        'Jonas looked up from the stove. "Only me," he said.',
      ),
    ],
    lines: [
      [
        ['"You never listen,"', 'marta'],
        ['"I always listen,"', 'tobias'],
        ['"Is anyone awake?"', NARRATOR],
        ['"Only me,"', 'jonas'],
      ],
    ],
  },
];

/**
 * A story written with its speakers inline: `{id "quote"}` is the quote "quote" spoken by id. The
 * text is the story without the braces and ids; the lines are the marked quotes in order.
 */
function annotated(name: string, ...chapters: string[][]): CastStory {
  const marked = chapters.map((ps) => ps.join('\n\n'));
  const mark = /\{([\w-]+) ((?:[^{}])*)\}/g;
  return {
    name,
    chapters: marked.map((c) => c.replace(mark, '$2')),
    lines: marked.map((c) => [...c.matchAll(mark)].map((m): [string, string] => [m[2] ?? '', m[1] ?? ''])),
  };
}

/** A longer story, two chapters and some seventy lines, every way of giving a line its speaker at once. */
export const LONG_CAST_STORY: CastStory = annotated(
  'The keeper of Gull Rock',
  [
    'Chapter One',
    'The supply boat came round the point an hour after noon, and Nell Harper was on the jetty before it touched the stones. Her father, Samuel Harper, the keeper of Gull Rock, stayed at the top of the steps with his pipe, as he always did.',
    '{nell-harper "You\'re late, Kit!"} she shouted.',
    'Kit Morrow threw her the rope and grinned. {kit-morrow "The wind was against us the whole way,"} he said. {kit-morrow "And I\'ve brought a passenger."}',
    'A tall man in a grey coat climbed out of the boat. He looked at the lighthouse, then at Nell, then at the steps.',
    '{inspector-crane "Miss Harper?"} asked the stranger.',
    '{nell-harper "Who wants to know?"}',
    '{inspector-crane "Inspector Crane, of the county police. I need a word with your father."}',
    'Nell glanced up at the steps. Samuel Harper had taken the pipe out of his mouth.',
    '{samuel-harper "Then come up and have it,"} the keeper called down. {samuel-harper "I\'ve nothing to hide on this rock."}',
    'Crane climbed the steps slowly. Kit leaned close to Nell.',
    '{kit-morrow "He asked about your father all the way over,"} he whispered. {kit-morrow "Every question was about the night of the wreck."}',
    '{nell-harper "What did you tell him?"}',
    '{kit-morrow "Nothing he didn\'t know already."}',
    '{nell-harper "Good."}',
    'In the kitchen Mrs. Odell had the kettle on before anyone asked. She looked the inspector up and down and did not offer him a chair.',
    '{mrs-odell "You\'ll be wanting tea,"} she said at last.',
    '{inspector-crane "Thank you, no,"} said Crane. {inspector-crane "Mr. Harper, where were you on the night of the ninth?"}',
    '{samuel-harper "Where I am every night. Up in the lamp room."}',
    '{inspector-crane "All night?"}',
    '{samuel-harper "A keeper doesn\'t leave his light, Inspector."}',
    '{inspector-crane "And yet the light went out."}',
    'Harper set his pipe on the table. His hands were steady, but Nell saw the muscle move in his jaw.',
    '{samuel-harper "The light did not go out,"} he said.',
    '{inspector-crane "Three men on the Mary Anne say it did."}',
    '{samuel-harper "Three men on the Mary Anne were drunk."}',
    'Mrs. Odell set a cup in front of the inspector anyway. {mrs-odell "Drink that,"} she told him. {mrs-odell "It\'s a long way back to the mainland."}',
    'Crane ignored the cup. He turned to Nell.',
    '{inspector-crane "Were you awake that night, Miss Harper?"}',
    '{nell-harper "I was asleep by ten."}',
    '{inspector-crane "You heard nothing?"}',
    '{nell-harper "Only the sea, Inspector. You get used to it here."}',
    'The inspector wrote something in a small black book. Then he stood.',
    '{inspector-crane "I\'ll see the lamp room now,"} he said, {inspector-crane "if the keeper has no objection."}',
    '{samuel-harper "The keeper has several,"} said Harper, {samuel-harper "but you\'ll see it all the same."}',
    '* * *',
    'That evening Nell found Kit at the boat, coiling rope in the last of the light.',
    '{nell-harper "He went through every logbook,"} she said. {nell-harper "Every page for ten years."}',
    '{kit-morrow "Did he find anything?"}',
    '{nell-harper "How should I know? He doesn\'t say what he finds."}',
    'Kit dropped the rope. {kit-morrow "Nell, there\'s something I didn\'t tell him."}',
    '{nell-harper "Then tell me."}',
    '{kit-morrow "On the ninth I was out past the point, after lobster. I saw the light, Nell. It was burning the whole time. But there was a second light, lower down, on the rocks."}',
    '{nell-harper "A second light?"}',
    '{kit-morrow "Like a lantern, swinging. Somebody on the rocks wanted the Mary Anne to think the channel was further west."}',
    'Nell sat down on the gunwale. For a long moment she said nothing.',
    '{nell-harper "Kit, you have to tell the inspector."}',
    '{kit-morrow "And have him ask what I was doing out there at midnight? My father would skin me."}',
    '{nell-harper "Better skinned than hanged,"} Nell said.',
  ],
  [
    'Chapter Two',
    'Morning brought fog, thick and white, and the inspector came down to breakfast in the same grey coat.',
    '{mrs-odell "Porridge,"} announced Mrs. Odell, and put a bowl in front of him before he could refuse.',
    '{inspector-crane "Mrs. Odell, how long have you kept house here?"}',
    '{mrs-odell "Twenty-two years this spring."}',
    '{inspector-crane "Then you knew the keeper before him."}',
    '{mrs-odell "I knew old Mr. Pask, yes. A drinking man. Mr. Harper is nothing like him, if that\'s what you\'re after."}',
    '{inspector-crane "I\'m after the truth, Mrs. Odell."}',
    'She snorted. {mrs-odell "Then you\'ve come to the wrong rock. We only keep lamps here."}',
    "Nell came in from the yard with Kit behind her. The boy's face was pale.",
    '{nell-harper "Inspector, Kit has something to say to you."}',
    'Crane put down his spoon. {inspector-crane "Go on, lad."}',
    'Kit told it all: the lobster pots, the midnight, the second light on the rocks. The inspector listened without a word until the end.',
    '{inspector-crane "A lantern,"} he said. {inspector-crane "Low on the rocks. Which side of the point?"}',
    '{kit-morrow "The west side, sir, below the old chapel."}',
    '{inspector-crane "You\'re sure?"}',
    '{kit-morrow "As sure as I\'m sitting here."}',
    'The inspector turned to Samuel Harper, who had come to stand in the doorway.',
    '{inspector-crane "Who can get down to those rocks at night, Mr. Harper?"}',
    '{samuel-harper "Nobody who wants to live. Except at the spring tides."}',
    '{inspector-crane "And the ninth was a spring tide."}',
    'Harper said nothing, which was answer enough.',
    '{nell-harper "Father, who else was on the island that night?"}',
    'Her father looked at Mrs. Odell. Mrs. Odell looked at her porridge pot.',
    '{mrs-odell "My brother came over,"} she said quietly. {mrs-odell "For his supper. He left before dark, or so he told me."}',
    '{inspector-crane "Your brother\'s name, Mrs. Odell?"}',
    '{mrs-odell "Jacob Pask."}',
  ],
);

/**
 * Three more stories measured beside the long one: a first-person narrator with British quotes and
 * a scene break; a husband and wife who share a surname, with a pet name; an interview among three,
 * with titles before the names.
 */
export const MORE_CAST_STORIES: CastStory[] = [
  annotated('The lights at the cottage', [
    'The rain had not stopped for three days when Miriam Sato finally knocked on my door.',
    '{miriam-sato ‘You look terrible,’} she said.',
    '{narrator ‘Thank you. Come in before you drown.’}',
    'She shook out her umbrella on the step and followed me into the kitchen, where my brother Leo was burning toast.',
    '{leo ‘Miriam!’} Leo dropped the knife. {leo ‘I thought you were in Lisbon.’}',
    '{miriam-sato ‘I was. Now I’m here.’}',
    '{leo ‘Obviously.’}',
    '{narrator ‘Leo, the toast,’} I said.',
    'He swore and flapped a tea towel at the smoke. Miriam sat at the table and pulled a brown envelope from her coat.',
    '{miriam-sato ‘I need you both to look at this,’} she said quietly. {miriam-sato ‘And I need you not to ask where I got it.’}',
    'I opened the envelope. Inside were three photographs of a house I knew very well.',
    '{narrator ‘That’s Gran’s cottage,’} I said.',
    '{miriam-sato ‘Look at the window on the left.’}',
    'Leo leaned over my shoulder. {leo ‘There’s someone inside.’}',
    '{miriam-sato ‘There is. And your gran’s been dead since ’98.’}',
    '{narrator ‘When were these taken?’}',
    '{miriam-sato ‘Tuesday.’}',
    'Nobody spoke for a while. The rain ran down the glass.',
    '{leo ‘Well,’} said Leo at last, {leo ‘I suppose we’re going to Norfolk.’}',
    '* * *',
    'The cottage looked smaller than I remembered. An old man was raking leaves by the gate, and he straightened as the car pulled up.',
    '{the-old-man ‘You’ll be the grandchildren,’} the old man said.',
    '{narrator ‘How did you know?’} I asked.',
    '{the-old-man ‘You’ve got her nose. Both of you.’}',
    'Leo laughed, then stopped when he saw my face.',
    '{leo ‘Who’s been living here?’} he asked.',
    'The old man leaned on his rake. {the-old-man ‘Nobody, lad. Not for years.’}',
    '{miriam-sato ‘Then who turns the lights on at night?’} asked Miriam.',
    'He looked at her for a long time before he answered.',
    '{the-old-man ‘I do,’} he said. {the-old-man ‘She asked me to. Before she went.’}',
  ]),
  annotated('Netherfield is let', [
    'Mr. Bennet was reading by the fire when his wife came in with a letter in her hand and an air of great importance.',
    '{mrs-bennet "My dear Mr. Bennet,"} said she, {mrs-bennet "have you heard that Netherfield is let at last?"}',
    'Mr. Bennet replied that he had not.',
    '{mrs-bennet "But it is,"} returned she; {mrs-bennet "for Mrs. Long has just been here, and she told me all about it."}',
    'Mr. Bennet made no answer.',
    '{mrs-bennet "Do you not want to know who has taken it?"} cried his wife impatiently.',
    '{mr-bennet "You want to tell me, and I have no objection to hearing it."}',
    'This was invitation enough.',
    '{mrs-bennet "Why, my dear, a young man of large fortune from the north of England; his name is Bingley, and he is single!"}',
    '{mr-bennet "How so? How can it affect our girls?"}',
    '{mrs-bennet "My dear Mr. Bennet,"} replied his wife, {mrs-bennet "how can you be so tiresome! You must know that I am thinking of his marrying one of them."}',
    '{mr-bennet "Is that his design in settling here?"}',
    '{mrs-bennet "Design! Nonsense, how can you talk so!"}',
    'Elizabeth looked up from her book and smiled at her father.',
    '{elizabeth "Papa is teasing you, Mama,"} she said.',
    '{mrs-bennet "Lizzy, hold your tongue."}',
    '{elizabeth "I only meant—"}',
    '{mrs-bennet "I know very well what you meant."}',
    '{mr-bennet "Let her speak, my dear,"} said Mr. Bennet, turning a page. {mr-bennet "She is the only one of them with any sense."}',
    'Mrs. Bennet threw up her hands and left the room, and Elizabeth laughed in spite of herself.',
    '{elizabeth "You are very cruel to her, Papa."}',
    '{mr-bennet "I am very fond of her, Lizzy. It is not the same thing as agreeing with her."}',
  ]),
  annotated('The interview room', [
    'Chapter 1',
    'Detective Sergeant Amir Khan pushed open the door of the interview room. The man at the table did not look up.',
    '{amir-khan "Mr. Doyle. Thanks for waiting."}',
    '{mr-doyle "Did I have a choice?"}',
    '{amir-khan "Everybody has a choice,"} Khan said, and sat down. He opened a folder. {amir-khan "Where were you on Friday night?"}',
    '{mr-doyle "At home."}',
    '{amir-khan "Alone?"}',
    '{mr-doyle "With my wife."}',
    '{amir-khan "Your wife says you went out at nine."}',
    'Doyle\'s hands tightened on the edge of the table. {mr-doyle "She\'s confused. She takes pills for her nerves."}',
    'The door opened again and Inspector Ruth Bell came in with two coffees. She put one in front of Khan and kept the other.',
    '{ruth-bell "Don\'t let me interrupt,"} she said.',
    '{amir-khan "Mr. Doyle was telling me about his wife\'s nerves."}',
    '{ruth-bell "Was he."} Bell sat on the corner of the desk. {ruth-bell "Funny. She seemed very calm to me."}',
    '{mr-doyle "You talked to her?"}',
    '{ruth-bell "For an hour, Mr. Doyle. She makes excellent tea."}',
    'Doyle looked from one of them to the other.',
    '{mr-doyle "I want a solicitor,"} he said.',
    '{amir-khan "That\'s your right,"} said Khan.',
    '{ruth-bell "Of course,"} Bell agreed. {ruth-bell "But your wife doesn\'t need one. She\'s already told us where you keep the van."}',
    'For a long moment nobody moved. Then Doyle put his head in his hands.',
    '{mr-doyle "It wasn\'t supposed to go like that,"} he whispered.',
  ]),
];

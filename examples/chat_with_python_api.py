"""The same bilingual chat assistant, with memlane's Python API instead of the proxy.

Before each answer, ``context()`` gives a prompt-ready block of what memlane remembers about the
user (fenced as quoted data); after it, ``add()`` hands the two turns to memlane's judge, which keeps
what will matter and drops the rest. Any OpenAI-compatible endpoint works::

    OPENAI_API_KEY=sk-... python examples/chat_with_python_api.py --user alice --model gpt-4o-mini
    python examples/chat_with_python_api.py --user alice --base-url http://localhost:11434/v1 --model qwen2.5

Type a message per line (Chinese or English); an empty line or Ctrl-D ends the chat.
"""

from __future__ import annotations

import argparse
import os
import sys

from openai import OpenAI

from memlane import Memory

SYSTEM = (
    "You are a helpful assistant. Answer in the language the user writes in (中文或英文). "
    "Use what you are told about the user when it helps, and never mention where it came from."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"))
    parser.add_argument("--user", required=True, help="whose memory: each user has their own")
    parser.add_argument("--session", default="chat", help="a conversation id (short-term memory)")
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--db", help="memlane's SQLite file (default: your data directory)")
    args = parser.parse_args()
    client = OpenAI(base_url=args.base_url, api_key=os.environ.get("OPENAI_API_KEY", "none"))
    history: list[dict[str, str]] = []
    with Memory(args.db) if args.db else Memory() as mem:
        for line in sys.stdin:
            if not line.strip():
                break
            said = line.strip()
            block = mem.context(said, user_id=args.user, session_id=args.session, caller="example-chat")
            prompt = [{"role": "system", "content": SYSTEM}, {"role": "system", "content": block.text}]
            history.append({"role": "user", "content": said})
            answer = client.chat.completions.create(model=args.model, messages=prompt + history)
            reply = answer.choices[0].message.content or ""
            print(reply, flush=True)
            history.append({"role": "assistant", "content": reply})
            # in a server, queue this instead (POST /v1/messages): the judge need not delay the next turn
            mem.add(history[-2:], user_id=args.user, session_id=args.session, caller="example-chat")


if __name__ == "__main__":
    main()

"""A bilingual chat assistant with memory, through ``memlane proxy`` (docs/proxy.md).

The application is a plain OpenAI client: memlane adds what it remembers about the user to each
request and remembers the conversation afterwards. Any OpenAI-compatible upstream works (OpenAI,
DeepSeek, Qwen, Ollama, vLLM)::

    memlane keys create --tenant demo                         # prints a key: MEMLANE_API_KEY
    MEMLANE_PROXY_UPSTREAM_KEY=sk-... memlane proxy --upstream https://api.openai.com/v1
    MEMLANE_API_KEY=mlk_... python examples/chat_through_proxy.py --user alice --model gpt-4o-mini

Type a message per line (Chinese or English); an empty line or Ctrl-D ends the chat.
"""

from __future__ import annotations

import argparse
import os
import sys

from openai import OpenAI

SYSTEM = (
    "You are a helpful assistant. Answer in the language the user writes in (中文或英文). "
    "Use what you are told about the user when it helps, and never mention where it came from."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proxy", default=os.environ.get("MEMLANE_PROXY_URL", "http://127.0.0.1:8080/v1"))
    parser.add_argument("--user", required=True, help="whose memory: each user has their own")
    parser.add_argument("--session", help="a conversation id: its turns stay in short-term memory")
    parser.add_argument("--model", default="gpt-4o-mini")
    args = parser.parse_args()
    headers = {"X-Memlane-User": args.user, **({"X-Memlane-Session": args.session} if args.session else {})}
    client = OpenAI(base_url=args.proxy, api_key=os.environ["MEMLANE_API_KEY"], default_headers=headers)
    history: list[dict[str, str]] = [{"role": "system", "content": SYSTEM}]
    for line in sys.stdin:
        if not line.strip():
            break
        history.append({"role": "user", "content": line.strip()})
        stream = client.chat.completions.create(model=args.model, messages=history, stream=True)
        reply = ""
        for chunk in stream:
            piece = chunk.choices[0].delta.content if chunk.choices else None
            if piece:
                reply += piece
                print(piece, end="", flush=True)
        print()
        history.append({"role": "assistant", "content": reply})


if __name__ == "__main__":
    main()

"""Answers from the index, with citations, by a llama.cpp model confined in a sandboxed worker process.

Entry points: :func:`appliance.answer.answering.answer_question` and
:func:`appliance.answer.answering.stream_answer`; the worker is
:class:`appliance.answer.worker.AnswerWorker`. Nothing is imported here, so importing the package never
loads llama.cpp (only the worker process does). See docs/answer.md.
"""

"""Small helpers every layer shares (private): the registry kind, output checks, wording, JSON in text,
the display hook, running a coroutine from synchronous code.

Nothing here is an API of its own: plugin authors import from :mod:`causalgraph.extend`, users from the
package root.
"""

__all__: list[str] = []

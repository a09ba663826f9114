namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// A log state whose text and values cannot change after the logging call: it may be formatted later,
/// on another thread (<see cref="BatchedConsoleLoggerProvider"/>). A state that reads live objects when
/// formatted (ASP.NET Core's request-finished line reads the request, recycled by then) may not.
/// </summary>
internal interface IFrozenLogState;

/// <summary>Which log states may be formatted after the logging call returns.</summary>
internal static class FrozenLogState
{
    /// <summary>
    /// True for a state that says so, and for a value-type state (what <c>[LoggerMessage]</c> and
    /// <c>LoggerMessage.Define</c> make: the values copied in at the call) whose values are all immutable.
    /// </summary>
    public static bool Is<TState>(TState state) => Is(state, state as IReadOnlyList<KeyValuePair<string, object?>>);

    /// <summary><see cref="Is{TState}(TState)"/> for a caller that holds the state's values already (a value-type state is boxed once).</summary>
    public static bool Is<TState>(TState state, IReadOnlyList<KeyValuePair<string, object?>>? fields) =>
        state is IFrozenLogState
        || (typeof(TState).IsValueType && fields is not null && AreImmutable(fields));

    /// <summary>True when every value is null, a string, a primitive, an enum or another immutable value.</summary>
    public static bool AreImmutable(IReadOnlyList<KeyValuePair<string, object?>> fields)
    {
        for (var i = 0; i < fields.Count; i++)
        {
            if (!IsImmutable(fields[i].Value))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsImmutable(object? value) =>
        value is null or string or Enum or decimal or DateTime or DateTimeOffset or TimeSpan or Guid || value.GetType().IsPrimitive;
}

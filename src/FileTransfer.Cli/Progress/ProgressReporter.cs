using FileTransfer.Client;

namespace FileTransfer.Cli.Progress;

/// <summary>
/// The library's progress reports on the tool's display: one line per phase (hashing, then
/// upload; or download), fed synchronously on the transferring thread.
/// </summary>
internal sealed class ProgressReporter(ITransferProgress display) : IProgress<TransferProgress>
{
    private IProgressLine? _line;
    private TransferPhase _phase;

    public void Report(TransferProgress value)
    {
        if (_line is null || value.Phase != _phase)
        {
            var description = value.Phase == TransferPhase.Hashing ? $"sha-256 {value.Name}" : FileTransferClient.GetFileName(value.Name);
            _line = display.Start(description, value.TotalBytes, value.StartedAt);
            _phase = value.Phase;
        }

        if (value.IsComplete)
        {
            _line.Complete(value.BytesDone);
        }
        else
        {
            _line.Set(value.BytesDone);
        }
    }
}

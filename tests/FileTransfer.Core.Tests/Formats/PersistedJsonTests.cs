using System.Text;
using System.Text.Json;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using FileTransfer.Storage.S3;

namespace FileTransfer.Core.Tests.Formats;

/// <summary>
/// The JSON that servers sharing a store read from one another (upload session and quota records)
/// and that clients hand back (page tokens). The golden strings are what the reflection-based
/// serializer wrote before the formats were generated at build time: a replica of this build and
/// one of an earlier build, or a record left on disk by either, must understand each other. Each
/// read is also compared with what the reflection-based serializer reads from the same JSON.
/// </summary>
public sealed class PersistedJsonTests : IDisposable
{
    private const string SessionFields =
        """
        "Version":1,"Id":"u1","Name":"a/b \u00E9.bin","Owner":"owner\u003C1\u003E","CreatedAt":"2026-11-03T10:20:30.1234567+00:00","ExpiresAt":"2026-11-03T13:20:30.1234567+02:00","Length":100,"Offset":40,"MaxBytes":1000,"ExpectedSha256":"AQID","MustNotExist":true,"IfMatch":["\u0022e1\u0022","\u0022e2\u0022"],"Metadata":"k v","HashState":"CQg=","Completed":{"Name":"a/b \u00E9.bin","Size":100,"LastModified":"2026-11-03T10:20:30.1234567+00:00","ETag":"\u0022x\u0022","Sha256":"Bw=="},"Replaced":true
        """;

    private const string LocalSessionJson = """{"BytesPath":"a/.ft-b.part","CreatedFolders":["a"],""" + SessionFields + "}";

    private const string S3SessionJson = """{"UploadId":"up","Parts":[{"Number":1,"ETag":"\u0022p1\u0022","Size":5}],"TailKey":"t","TailLength":3,""" + SessionFields + "}";

    private const string QuotaJson = """{"Version":1,"Bytes":5,"Files":1,"Reservations":{"upload:1":{"Bytes":10,"Files":1,"ExpiresAt":"2026-11-03T10:20:30.1234567+00:00"}},"UsedBytes":15,"UsedFiles":2}""";

    private static readonly DateTimeOffset Time = new DateTimeOffset(2026, 11, 3, 10, 20, 30, 123, TimeSpan.Zero).AddTicks(4567);

    private readonly TempFolder _folder = new();

    public void Dispose() => _folder.Dispose();

    [Fact]
    public void Records_Are_Written_Byte_For_Byte_As_Before()
    {
        var local = new LocalSessionRecord(Session(), "a/.ft-b.part", ["a"]);
        var s3 = new S3SessionRecord(Session()) { UploadId = "up", Parts = [new S3SessionPart(1, "\"p1\"", 5)], TailKey = "t", TailLength = 3 };
        var quota = new QuotaRecord { Bytes = 5, Files = 1, Reservations = new(StringComparer.Ordinal) { ["upload:1"] = new QuotaReservation(10, 1, Time) } };

        Assert.Equal(LocalSessionJson, Encoding.UTF8.GetString(local.ToJson()));
        Assert.Equal(S3SessionJson, Encoding.UTF8.GetString(s3.ToJson()));
        Assert.Equal(QuotaJson, Encoding.UTF8.GetString(quota.ToJson()));
        Assert.Equal(Reflected(local), Encoding.UTF8.GetString(local.ToJson()));
        Assert.Equal(Reflected(s3), Encoding.UTF8.GetString(s3.ToJson()));
        Assert.Equal(Reflected(quota), Encoding.UTF8.GetString(quota.ToJson()));
    }

    [Theory]
    [InlineData(LocalSessionJson)]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o","BytesPath":"b"}""")]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o","BytesPath":"b","Version":2}""")]
    [InlineData("""{"id":"u1","name":"n","owner":"o","bytesPath":"b","Extra":[1]}""")]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o","BytesPath":"b","Offset":"7"}""")]
    [InlineData("null")]
    public void A_Local_Session_Record_Reads_As_Before(string json)
    {
        File.WriteAllText(_folder.PathOf("s.json"), json);

        var read = LocalSessionRecord.Read(_folder.PathOf("s.json"));

        Assert.Equal(Reflected(ReadByReflection<LocalSessionRecord>(json)), Reflected(read));
    }

    [Fact]
    public void Records_With_Their_Optional_Members_Unset_Are_Written_And_Read_As_Before()
    {
        var session = new UploadSession("u1", "n", "o", Time, Time) { Completed = new CompletedUpload(new StoredObject("n", 1, Time, "\"e\""), Replaced: false) };
        var local = new LocalSessionRecord(session, "b", []);
        var s3 = new S3SessionRecord(session);
        File.WriteAllBytes(_folder.PathOf("s.json"), local.ToJson());

        Assert.Equal(Reflected(local), Encoding.UTF8.GetString(local.ToJson()));
        Assert.Equal(Reflected(s3), Encoding.UTF8.GetString(s3.ToJson()));
        Assert.Equal(Reflected(local), Reflected(LocalSessionRecord.Read(_folder.PathOf("s.json"))));
        Assert.Equal(Reflected(s3), Reflected(S3SessionRecord.Parse(new MemoryStream(s3.ToJson()))));
    }

    [Theory]
    [InlineData(S3SessionJson)]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o"}""")]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o","Version":0}""")]
    [InlineData("""{"Id":"u1","Name":"n","Owner":"o","Parts":[{"Number":1}]}""")]
    [InlineData("""{"Id":"u1","Name":"n"}""")]
    [InlineData("[]")]
    public void An_S3_Session_Record_Reads_As_Before(string json)
    {
        var read = S3SessionRecord.Parse(new MemoryStream(Encoding.UTF8.GetBytes(json)));

        Assert.Equal(Reflected(ReadByReflection<S3SessionRecord>(json)), Reflected(read));
    }

    [Theory]
    [InlineData(QuotaJson)]
    [InlineData("""{"Bytes":5}""")]
    [InlineData("""{"Version":1,"Bytes":5,"Files":1,"Reservations":{"a":{"Bytes":1}}}""")]
    [InlineData("""{"Version":3,"Bytes":5}""")]
    [InlineData("""{"Bytes":"5"}""")]
    [InlineData("{")]
    public async Task A_Quota_Record_Reads_As_Before(string json)
    {
        var bytes = Encoding.UTF8.GetBytes(json);

        var read = QuotaRecord.Parse(bytes);
        var readAsync = await QuotaRecord.ParseAsync(new MemoryStream(bytes), TestTimeout.Token);

        var expected = Reflected(ReadByReflection<QuotaRecord>(json));
        Assert.Equal(expected, Reflected(read));
        Assert.Equal(expected, Reflected(readAsync));
    }

    [Fact]
    public void A_Page_Token_Is_Written_And_Read_As_Before()
    {
        const string Token = "eyJQIjoicC8iLCJDIjoiY1x1MDBFOSJ9"; // {"P":"p/","C":"c\u00E9"}, as the reflection-based serializer wrote it

        Assert.Equal(Token, PageToken.Encode("p/", "c\u00E9"));
        Assert.Equal("c\u00E9", PageToken.Decode(Token, "p/"));
        Assert.Equal("c", PageToken.Decode("eyJDIjoiYyIsIlAiOiJwLyIsIlgiOjF9", "p/")); // {"C":"c","P":"p/","X":1}
    }

    private static UploadSession Session() => new("u1", "a/b \u00E9.bin", "owner<1>", Time, Time.AddHours(1).ToOffset(TimeSpan.FromHours(2)))
    {
        Length = 100,
        Offset = 40,
        MaxBytes = 1000,
        ExpectedSha256 = [1, 2, 3],
        Preconditions = new Preconditions(MustNotExist: true, ["\"e1\"", "\"e2\""]),
        Metadata = "k v",
        HashState = [9, 8],
        Completed = new CompletedUpload(new StoredObject("a/b \u00E9.bin", 100, Time, "\"x\"", [7]), Replaced: true),
    };

    // What the code before the generated contexts read: the reflection-based serializer, default options, version 1 only.
    private static T? ReadByReflection<T>(string json)
        where T : class
    {
        try
        {
            var record = JsonSerializer.Deserialize<T>(json);
            return record switch
            {
                UploadSessionRecord { Version: not 1 } or QuotaRecord { Version: not 1 } => null,
                _ => record,
            };
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static string Reflected(object? value) => value is null ? "null" : JsonSerializer.Serialize(value, value.GetType());
}

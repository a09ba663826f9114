#!/usr/bin/env bash
# Takes docs/web-page.png, the README's picture of the web page: builds and starts the server on a
# loopback port over a temporary storage root with a few example files, and drives Debian's chromium
# with Playwright: the driver and its Node.js from the Microsoft.Playwright NuGet package (the
# version pinned in Directory.Packages.props), nothing downloaded. Needs chromium
# (scripts/install-test-deps.sh installs it).
#   bash scripts/web-screenshot.sh [output.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs/web-page.png}")

version=$(sed -n 's/.*Include="Microsoft.Playwright" Version="\([^"]*\)".*/\1/p' Directory.Packages.props)
packages=$(dotnet nuget locals global-packages --list | sed 's/^global-packages: //')
driver="$packages/microsoft.playwright/$version/.playwright"
if [[ ! -x $driver/node/linux-x64/node ]]; then
  dotnet restore tests/FileTransfer.Server.Tests >/dev/null
fi
dotnet build src/FileTransfer.Server -c Release >/dev/null

work=$(mktemp -d /tmp/filetransfer-screenshot.XXXXXX)
server_pid=""
trap '[[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
root="$work/storage"
mkdir -p "$root/projects/design" "$root/projects/photos 2026" "$work/pick"
head -c 2400000 /dev/urandom >"$root/projects/Annual report 2026.pdf"
head -c 48213 /dev/urandom >"$root/projects/budget.xlsx"
head -c 1210 /dev/urandom >"$root/projects/notes.txt"
head -c 734003 /dev/urandom >"$root/projects/design/logo.svg"
head -c 5123456 /dev/urandom >"$root/projects/photos 2026/IMG_0142.jpg"
head -c 4988001 /dev/urandom >"$root/projects/photos 2026/IMG_0143.jpg"
truncate -s 3100000000 "$root/projects/site-backup.tar"
head -c 40000000 /dev/urandom >"$work/pick/interview.mp4"
head -c 25000000 /dev/urandom >"$work/pick/slides.pptx"

key="screenshot-key-0123456789abcdef"
ASPNETCORE_ENVIRONMENT=Production Storage__RootPath="$root" \
  Auth__ApiKeys__0__Key="$key" Auth__ApiKeys__0__Scopes__0=read Auth__ApiKeys__0__Scopes__1=write Auth__ApiKeys__0__Scopes__2=delete \
  Kestrel__Endpoints__Http1__Url=http://127.0.0.1:5099 Kestrel__Endpoints__Http2__Url=http://127.0.0.1:5098 \
  dotnet src/FileTransfer.Server/bin/Release/net10.0/FileTransfer.Server.dll >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -fs http://127.0.0.1:5099/healthz >/dev/null 2>&1 && break; sleep 0.2; done

cat >"$work/shot.js" <<'JS'
const { chromium } = require(process.env.PLAYWRIGHT_PACKAGE);
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 860 }, locale: 'en-GB', timezoneId: 'UTC' });
  await context.addInitScript((key) => sessionStorage.setItem('filetransfer.apiKey', key), process.env.KEY);
  const page = await context.newPage();
  // Uploads slowed down so that they are caught in progress.
  await page.route('**/api/uploads/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1500));
    await route.fallback();
  });
  await page.goto('http://127.0.0.1:5099/?chunkSize=4194304#/projects/');
  await page.locator('#rows tr').nth(5).waitFor();
  await page.locator('#pick-files').setInputFiles([`${process.env.PICK}/interview.mp4`, `${process.env.PICK}/slides.pptx`]);
  await page.waitForFunction(() => [...document.querySelectorAll('.upload-detail')].filter((p) => p.textContent.includes('left')).length === 2, null, { timeout: 180000 });
  await page.screenshot({ path: process.env.OUT });
  await browser.close();
})().catch((error) => { console.error(error); process.exit(1); });
JS
PLAYWRIGHT_PACKAGE="$driver/package" KEY="$key" PICK="$work/pick" OUT="$out" "$driver/node/linux-x64/node" "$work/shot.js"
echo "wrote $out"

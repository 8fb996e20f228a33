/**
 * stderr of git 2.39.5 (LC_ALL=C, GIT_TERMINAL_PROMPT=0) recorded from real runs: against a
 * missing path, a closed port, an unknown host, a server answering 401/403/404/500, a tmpfs of
 * 200 KiB (disk full) and worktrees in the states named. Ports and paths are as they were.
 */
export const RECORDED_GIT_STDERR = {
  missingFileUrl: `Cloning into bare repository 'a.git'...
fatal: '/tmp/gs/nope.git' does not appear to be a git repository
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
`,
  missingLocalPath: `fatal: repository '/tmp/gs/nope' does not exist
`,
  connectionRefused: `Cloning into bare repository 'b.git'...
fatal: unable to access 'http://127.0.0.1:1/r.git/': Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server
`,
  unknownHost: `Cloning into bare repository 'c.git'...
fatal: unable to access 'https://nonexistent.invalid/r.git/': Could not resolve host: nonexistent.invalid
`,
  noCredentialPromptDisabled: `Cloning into bare repository 'd1.git'...
fatal: could not read Username for 'http://127.0.0.1:41147': terminal prompts disabled
`,
  wrongCredential: `Cloning into bare repository 'd2.git'...
fatal: Authentication failed for 'http://127.0.0.1:41147/r.git/'
`,
  forbidden: `Cloning into bare repository 'd3.git'...
fatal: unable to access 'http://127.0.0.1:41147/forbidden/r.git/': The requested URL returned error: 403
`,
  notFoundOverHttp: `Cloning into bare repository 'd4.git'...
fatal: repository 'http://127.0.0.1:41147/missing/r.git/' not found
`,
  serverError: `Cloning into bare repository 'd5.git'...
fatal: unable to access 'http://127.0.0.1:41147/boom/r.git/': The requested URL returned error: 500
`,
  askPassGaveNothing: `Cloning into bare repository 'd6.git'...
error: unable to read askpass response from '/tmp/gs/ap2.sh'
fatal: could not read Username for 'http://127.0.0.1:41147': terminal prompts disabled
`,
  cloneDiskFull: `Cloning into bare repository 'tiny/c.git'...
error: copy-fd: write returned: No space left on device
fatal: failed to copy file to 'tiny/c.git/objects/c5/586290277d33d5321074c29931fe1cefa35281': No space left on device
`,
  fetchDiskFull: `fatal: unable to write loose object file: No space left on device
fatal: unpack-objects failed
`,
  // git names no errno here: only the free space left tells it from a permission problem.
  worktreeCheckoutDiskFull: `Preparing worktree (new branch 'w')
error: unable to write file blob.bin
error: unable to write file t1.txt
error: unable to write file t2.txt
error: unable to write file t3.txt
fatal: Could not reset index file to revision 'HEAD'.
`,
  branchExists: `Preparing worktree (new branch 't')
fatal: a branch named 't' already exists
`,
  branchCheckedOutElsewhere: `Preparing worktree (checking out 't')
fatal: 't' is already checked out at '/tmp/gs/w2'
`,
  worktreePathExists: `Preparing worktree (new branch 't2')
fatal: '../w2' already exists
`,
  missingRemoteRef: `fatal: couldn't find remote ref nosuchbranch
`,
} as const;
